// SPDX-License-Identifier: GPL-2.0-only
// Where the native CLI of a variant is built, for each word size of the
// simulated machine (wasm/build.mk: build/native at 32 bits, build/native64
// at 64). Node-side tests run it to get what the page should show; this
// module imports nothing, so Playwright's specs can use it too.

/** The native labrun of a variant on the machine of a word size. */
export function labrunPath(variant: string, bits: 32 | 64): string {
  return `build/native${bits === 64 ? '64' : ''}/${variant}/labrun`;
}
