// SPDX-License-Identifier: GPL-2.0-only
// Every key of the page's key map, in a dialog (`?` opens and closes it,
// Escape closes it).
import { useEffect, useRef } from 'react';
import type { KeyBinding } from './keymap';
import './KeyHelp.css';

export function KeyHelp({ bindings, onClose, className = 'dialog key-help' }: { bindings: KeyBinding[]; onClose: () => void; className?: string }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div className={className} role="dialog" aria-label="Keyboard" data-testid="keys.help">
      <table>
        <tbody>
          {bindings.map((b) => (
            <tr key={b.shown}>
              <th scope="row">
                <kbd>{b.shown}</kbd>
              </th>
              <td>{b.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" ref={close} onClick={onClose} data-testid="keys.close">
        Close
      </button>
    </div>
  );
}
