// SPDX-License-Identifier: GPL-2.0-only
// "Present this state": the state on screen, with a title and notes the
// speaker types, goes to the end of a talk being built in this browser
// (localStorage, so a reload loses nothing). The same dialog lists that
// talk's slides to reorder, rename and delete, downloads it as a talk file
// (talks/README.md), presents it, and imports a talk file into talk mode,
// saying what is wrong with one that is not a talk.
import { useEffect, useRef, useState } from 'react';
import { BUILT, IMPORTED, loadStored, saveStored, TalkError, type StoredTalk, type TalkFile, type TalkFileSlide } from './talks';
import type { TalkDef } from './slides';
import './builder.css';

interface Props {
  /** The state on screen as a live slide's permalink (`?scene=…&step=…`). */
  permalink: string;
  /** The state in words, as the dialog names it. */
  label: string;
  /** A talk file's text, checked by the one loader (throws TalkError). */
  read: (text: string, name: string) => TalkDef;
  onClose: () => void;
  /** A live slide's state in a few words (the app reads its link, app/url.ts). */
  liveWords: (permalink: string) => string;
  /** The link that presents the talk being built. */
  presentLink: string;
  /** Open the talk just imported, in talk mode. */
  openImported: () => void;
}

const EMPTY: StoredTalk = { name: 'my-talk.json', talk: { title: 'My talk', slides: [] } };

/** A slide of the talk being built, in a few words. */
function describe(s: TalkFileSlide, liveWords: (permalink: string) => string): string {
  if (s.live) return `live: ${liveWords(s.live)}`;
  if (s.text) return `text: ${s.text.slice(0, 40)}`;
  if (s.patch) return `patch: ${s.patch.file}`;
  if (s.goals) return 'goals';
  return 'title';
}

export function TalkBuilder({ permalink, label, read, onClose, liveWords, presentLink, openImported }: Props) {
  const [built, setBuilt] = useState<StoredTalk>(() => loadStored(BUILT) ?? EMPTY);
  const [title, setTitle] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const change = (talk: TalkFile) => {
    const next = { ...built, talk };
    setBuilt(next);
    saveStored(BUILT, next);
  };
  const slides = built.talk.slides;
  const setSlides = (s: TalkFileSlide[]) => change({ ...built.talk, slides: s });
  const move = (i: number, d: number) => {
    const s = [...slides];
    [s[i], s[i + d]] = [s[i + d], s[i]];
    setSlides(s);
  };

  const add = () => {
    const slide: TalkFileSlide = { title: title.trim() || label, live: permalink };
    const n = notes.trim();
    if (n) slide.notes = n.split('\n').filter((l) => l.trim());
    setSlides([...slides, slide]);
    setAdded(`Added as slide ${slides.length + 1}.`);
    setTitle('');
    setNotes('');
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(built.talk, null, 2)}\n`], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${built.talk.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'talk'}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const importFile = async (file: File) => {
    setError(null);
    try {
      const text = await file.text();
      read(text, file.name); // throws with the file and the field at fault
      saveStored(IMPORTED, { name: file.name, talk: JSON.parse(text) as TalkFile });
      openImported();
    } catch (e) {
      setError(e instanceof TalkError ? e.message : `${file.name}: ${(e as Error).message}`);
    }
  };

  return (
    <div className="dialog talk-builder" role="dialog" aria-label="Present this state" data-testid="builder">
      <h2>Present this state</h2>
      <p className="muted">{label}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label>
          Slide title <input ref={first} type="text" value={title} placeholder={label} onChange={(e) => setTitle(e.target.value)} data-testid="builder.title" />
        </label>
        <label>
          Speaker notes <textarea rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} data-testid="builder.notes" />
        </label>
        <button type="submit" data-testid="builder.add">
          Add to the talk
        </button>{' '}
        <span role="status">{added}</span>
      </form>

      <h3>The talk being built</h3>
      <label>
        Title <input type="text" value={built.talk.title} onChange={(e) => change({ ...built.talk, title: e.target.value })} data-testid="builder.talk-title" />
      </label>
      {slides.length === 0 ? (
        <p className="muted">No slides yet.</p>
      ) : (
        <ol className="builder-slides" data-testid="builder.slides">
          {slides.map((s, i) => (
            <li key={i} data-testid="builder.slide">
              <input
                type="text"
                aria-label={`Title of slide ${i + 1}`}
                value={s.title ?? ''}
                onChange={(e) => setSlides(slides.map((x, k) => (k === i ? { ...x, title: e.target.value } : x)))}
                data-testid="builder.rename"
              />
              <button type="button" aria-label={`Move slide ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)} data-testid="builder.up">
                ↑
              </button>
              <button type="button" aria-label={`Move slide ${i + 1} down`} disabled={i === slides.length - 1} onClick={() => move(i, 1)} data-testid="builder.down">
                ↓
              </button>
              <button type="button" aria-label={`Delete slide ${i + 1}`} onClick={() => setSlides(slides.filter((_, k) => k !== i))} data-testid="builder.delete">
                ✕
              </button>
              <span className="muted">{describe(s, liveWords)}</span>
            </li>
          ))}
        </ol>
      )}
      <p className="builder-actions">
        <button type="button" onClick={download} disabled={!slides.length} data-testid="builder.download">
          Download the talk
        </button>
        <a className={slides.length ? '' : 'disabled'} href={slides.length ? presentLink : undefined} aria-disabled={!slides.length} data-testid="builder.present">
          Present it
        </a>
        <label className="builder-import">
          Import a talk file… <input type="file" accept=".json,application/json" onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} data-testid="builder.import" />
        </label>
      </p>
      {error && (
        <p className="error" role="alert" data-testid="builder.error">
          {error}
        </p>
      )}
      <button type="button" onClick={onClose} data-testid="builder.close">
        Close
      </button>
    </div>
  );
}
