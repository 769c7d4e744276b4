// SPDX-License-Identifier: GPL-2.0-only
// A slide's text, markdown-ish as the lessons write it: paragraphs split by
// a blank line, lines starting with "- " as a list, `code` in backquotes.
import { Fragment } from 'react';

function Inline({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) => (p.length > 2 && p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : <Fragment key={i}>{p}</Fragment>))}
    </>
  );
}

export function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((block, i) => {
        const lines = block.split('\n').filter((l) => l.trim());
        if (lines.length && lines.every((l) => l.trimStart().startsWith('- ')))
          return (
            <ul key={i}>
              {lines.map((l, k) => (
                <li key={k}>
                  <Inline text={l.trimStart().slice(2)} />
                </li>
              ))}
            </ul>
          );
        return (
          <p key={i}>
            <Inline text={lines.join(' ')} />
          </p>
        );
      })}
    </>
  );
}
