// SPDX-License-Identifier: GPL-2.0-only
/*
 * main()'s arguments in the 64-bit wasm build (make wasm64): emcc 3.1.6's
 * callMain() writes argv as 4-byte pointers (HEAP32) at every width, so at
 * -sMEMORY64=2 main() would read each pair of them as one pointer. This
 * calls main() as callMain() does, with argv's pointers 8 bytes each.
 */
Module['noInitialRun'] = true;
Module['onRuntimeInitialized'] = function() {
  var args = arguments_;
  var argc = args.length + 1;
  var argv = stackAlloc((argc + 1) * 8);
  HEAP64[argv >> 3] = BigInt(allocateUTF8OnStack(thisProgram));
  for (var i = 1; i < argc; i++)
    HEAP64[(argv >> 3) + i] = BigInt(allocateUTF8OnStack(args[i - 1]));
  HEAP64[(argv >> 3) + argc] = BigInt(0);
  try {
    var ret = Module['_main'](argc, argv);
    exit(ret, true);
  } catch (e) {
    handleException(e);
  }
};
