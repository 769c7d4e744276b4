// SPDX-License-Identifier: GPL-2.0-only
// One key map for the page, whatever has focus: a focused button, select,
// checkbox or the scrubber does not swallow the keys. Only where a person
// types text do keys stay with the field, Escape excepted: it leaves any
// control, a text field too. The help dialog (KeyHelp) lists the same
// bindings, so what it shows is what the page does.
import { useEffect, useRef } from 'react';

export interface KeyBinding {
  /** KeyboardEvent.key values that run it. */
  keys: string[];
  /** How the help dialog writes the keys. */
  shown: string;
  what: string;
  run: (e: KeyboardEvent) => void;
}

/**
 * The stepping keys every page that steps through something shares (the
 * scenes' events, a real trace's passes): space plays or pauses, ← → step
 * (with Shift: ten), Home and End go to the ends.
 */
export function stepBindings(unit: string, step: number, last: number, seek: (s: number) => void, togglePlay: () => void): KeyBinding[] {
  return [
    { keys: [' '], shown: 'space', what: 'play or pause', run: togglePlay },
    { keys: ['ArrowRight'], shown: '→', what: `next ${unit} (Shift: ten)`, run: (e) => seek(step + (e.shiftKey ? 10 : 1)) },
    { keys: ['ArrowLeft'], shown: '←', what: `previous ${unit} (Shift: ten)`, run: (e) => seek(step - (e.shiftKey ? 10 : 1)) },
    { keys: ['Home'], shown: 'Home', what: `first ${unit}`, run: () => seek(0) },
    { keys: ['End'], shown: 'End', what: `last ${unit}`, run: () => seek(last) },
  ];
}

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);

/** Where the keys belong to the focused element: a field a person types text in. */
export function typesText(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

// How the focused element got its focus: a pointer (a click) or not (Tab,
// or focus moved by the page). Browsers' :focus-visible turns on at the
// first key pressed, so it cannot tell a clicked control from a tabbed one.
let pointerDown = false;
let focusByPointer = false;
const onPointerDown = () => {
  pointerDown = true;
  setTimeout(() => (pointerDown = false), 0);
};
const onFocusIn = () => {
  focusByPointer = pointerDown;
};

/**
 * Space on a control reached with the keyboard keeps its native meaning,
 * pressing it, so the page stays usable without a mouse; after a click on
 * the control, space is the page's again.
 */
function pressesControl(e: KeyboardEvent, el: Element | null): boolean {
  if (e.key !== ' ' || !el || focusByPointer) return false;
  return !!el.closest('button, summary, a[href], input[type=checkbox], input[type=radio], [role=button]');
}

/** Runs the bindings on keydown (captured first, so a focused control's own use of the key does not happen). */
export function useKeyMap(bindings: KeyBinding[] | null) {
  const ref = useRef(bindings);
  ref.current = bindings;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const map = ref.current;
      if (!map || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const el = e.target instanceof Element ? e.target : document.activeElement;
      // Escape is the way out of a field (the stage owns the keys again): never the field's.
      if (e.key !== 'Escape' && (typesText(el) || pressesControl(e, el))) return;
      const b = map.find((x) => x.keys.includes(e.key));
      if (!b) return;
      e.preventDefault();
      e.stopPropagation();
      b.run(e);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('pointerdown', onPointerDown, { capture: true });
    window.addEventListener('focusin', onFocusIn, { capture: true });
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('pointerdown', onPointerDown, { capture: true });
      window.removeEventListener('focusin', onFocusIn, { capture: true });
    };
  }, []);
}
