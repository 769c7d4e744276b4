// SPDX-License-Identifier: GPL-2.0-only
/*
 * The imports of the 64-bit wasm build (make wasm64, -sMEMORY64=2) whose
 * JavaScript in emcc 3.1.6 is not 64-bit. At -sMEMORY64=2 every pointer and
 * size_t crosses into JavaScript as an i64, so as a BigInt, and the C
 * structures it reads hold 8-byte pointers; 3.1.6 converts the arguments of
 * its syscalls and of fd_write, and of nothing else, and reads and writes
 * every structure's pointers as i32. Given with --js-library, after the
 * system libraries, each function here replaces the system one of the same
 * name (src/modules.js: "users can override built-in JS library symbols").
 *
 * Pointers become Numbers on the way in: the module is lowered to a 32-bit
 * memory after linking, so every address is below 2^32 and exact in a
 * double. Structure layouts are C_STRUCTS, measured for wasm64 by emcc's
 * struct-info probe. Fibers need nothing here: they switch over Asyncify
 * from C (runtime/fiber.c), as at 32 bits.
 * Zero is written BigInt(0): 3.1.6's minifier cannot print the literal 0n.
 */
mergeInto(LibraryManager.library, {
  // memcpy() of 512 bytes and more (emscripten_memcpy.c): returns dest.
  emscripten_memcpy_big: function(dest, src, num) {
    dest = Number(dest); src = Number(src); num = Number(num);
    HEAPU8.copyWithin(dest, src, src + num);
    return BigInt(dest);
  },

  // sbrk() growing the memory: the request is a size_t.
  emscripten_resize_heap__deps: ['emscripten_get_heap_max', '$emscripten_realloc_buffer'],
  emscripten_resize_heap: function(requestedSize) {
    var oldSize = HEAPU8.length;
    var maxHeapSize = _emscripten_get_heap_max();
    requestedSize = Number(requestedSize);
    if (requestedSize > maxHeapSize)
      return 0;
    // As 3.1.6 grows it: 20% more at a time, at most 96 MiB above the request.
    for (var cutDown = 1; cutDown <= 4; cutDown *= 2) {
      var overGrown = Math.min(oldSize * (1 + 0.2 / cutDown), requestedSize + 100663296);
      var newSize = Math.max(requestedSize, overGrown);
      newSize = Math.min(maxHeapSize, Math.ceil(newSize / 65536) * 65536);
      if (emscripten_realloc_buffer(newSize))
        return 1;
    }
    return 0;
  },

  // struct timespec is { time_t tv_sec; long tv_nsec; }: two 8-byte fields.
  clock_gettime__deps: ['emscripten_get_now', 'emscripten_get_now_is_monotonic', '$setErrNo'],
  clock_gettime: function(clk_id, tp) {
    var now;
    tp = Number(tp);
    if (clk_id === {{{ cDefine('CLOCK_REALTIME') }}}) {
      now = Date.now();
    } else if ((clk_id === {{{ cDefine('CLOCK_MONOTONIC') }}} || clk_id === {{{ cDefine('CLOCK_MONOTONIC_RAW') }}}) &&
               _emscripten_get_now_is_monotonic) {
      now = _emscripten_get_now();
    } else {
      setErrNo({{{ cDefine('EINVAL') }}});
      return -1;
    }
    HEAP64[(tp + {{{ C_STRUCTS.timespec.tv_sec }}}) >> 3] = BigInt(Math.floor(now / 1000));
    HEAP64[(tp + {{{ C_STRUCTS.timespec.tv_nsec }}}) >> 3] = BigInt(Math.floor((now % 1000) * 1000 * 1000));
    return 0;
  },

  // WASI reads and writes: struct iovec is { void *iov_base; size_t iov_len; }
  // (3.1.6's doReadv and doWritev read two i32 at a stride of 8), and the
  // count goes back as a size_t.
  $wasm64Iov__deps: ['$FS', '$SYSCALLS'],
  $wasm64Iov: function(fd, iov, iovcnt, pnum, write) {
    try {
      var stream = SYSCALLS.getStreamFromFD(fd);
      var ret = 0;
      iov = Number(iov);
      for (var i = 0; i < Number(iovcnt); i++) {
        var at = iov + i * {{{ C_STRUCTS.iovec.__size__ }}};
        var ptr = Number(HEAP64[(at + {{{ C_STRUCTS.iovec.iov_base }}}) >> 3]);
        var len = Number(HEAP64[(at + {{{ C_STRUCTS.iovec.iov_len }}}) >> 3]);
        var curr = write ? FS.write(stream, HEAP8, ptr, len) : FS.read(stream, HEAP8, ptr, len);
        ret += curr;
        if (!write && curr < len)
          break;
      }
      HEAP64[Number(pnum) >> 3] = BigInt(ret);
      return 0;
    } catch (e) {
      if (typeof FS == 'undefined' || !(e instanceof FS.ErrnoError)) throw e;
      return e.errno;
    }
  },
  fd_write__deps: ['$wasm64Iov'],
  fd_write: function(fd, iov, iovcnt, pnum) {
    return wasm64Iov(fd, iov, iovcnt, pnum, 1);
  },
  fd_read__deps: ['$wasm64Iov'],
  fd_read: function(fd, iov, iovcnt, pnum) {
    return wasm64Iov(fd, iov, iovcnt, pnum, 0);
  },
  // The offset is an i64 (a BigInt at any width); the result's address too.
  fd_seek__deps: ['$SYSCALLS'],
  fd_seek: function(fd, offset, whence, newOffset) {
    try {
      offset = Number(offset);
      if (!Number.isSafeInteger(offset))
        return {{{ cDefine('EOVERFLOW') }}};
      var stream = SYSCALLS.getStreamFromFD(fd);
      FS.llseek(stream, offset, whence);
      HEAP64[Number(newOffset) >> 3] = BigInt(stream.position);
      if (stream.getdents && offset === 0 && whence === {{{ cDefine('SEEK_SET') }}})
        stream.getdents = null;
      return 0;
    } catch (e) {
      if (typeof FS == 'undefined' || !(e instanceof FS.ErrnoError)) throw e;
      return e.errno;
    }
  },
});
