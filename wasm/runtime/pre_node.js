// SPDX-License-Identifier: GPL-2.0-only
/*
 * labrun's output under Node (labrun.cjs of make wasm and make wasm64), written
 * before the line after it is made. emcc's own print is console.log: into a
 * pipe Node writes what the pipe takes and queues the rest, and exit()
 * ends the process with the queue unwritten, so a reader slower than the
 * run (labrun.cjs ... | less) got the first 64 KB of the output and
 * nothing after. A caller's own print (wasm/tools/labrun-pool.mjs) stays.
 */
(function() {
  var fs = require('fs');
  var pause = new Int32Array(new SharedArrayBuffer(4));
  function writeAll(fd, text) {
    var buf = Buffer.from(text);
    for (var at = 0; at < buf.length;) {
      try {
        at += fs.writeSync(fd, buf, at, buf.length - at);
      } catch (e) {
        if (e.code !== 'EAGAIN') throw e;
        Atomics.wait(pause, 0, 0, 1); // the pipe is full: its reader has not caught up
      }
    }
  }
  if (!Module['print']) Module['print'] = function(s) { writeAll(1, s + '\n'); };
  if (!Module['printErr']) Module['printErr'] = function(s) { writeAll(2, s + '\n'); };
})();
