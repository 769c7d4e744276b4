// SPDX-License-Identifier: GPL-2.0-only
// The "asyncify" imports of runtime/fiber.c (wasm32). Binaryen's Asyncify
// pass connects them to its own unwind and rewind and removes the imports;
// these stand-ins only let emcc's JavaScript compiler accept the link, and
// a module still importing them was not transformed.
mergeInto(LibraryManager.library, {
  start_unwind: function() { abort('asyncify.start_unwind left in the module'); },
  stop_unwind: function() { abort('asyncify.stop_unwind left in the module'); },
  start_rewind: function() { abort('asyncify.start_rewind left in the module'); },
  stop_rewind: function() { abort('asyncify.stop_rewind left in the module'); },
});
