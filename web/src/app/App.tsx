// SPDX-License-Identifier: GPL-2.0-only
// The shell: reads the permalink, holds the page's state (useLab), keeps the
// address at it (usePermalink) and hands it to the layout the URL asked
// for: the full page, the embed or the talk (layouts/).
import { useMemo, useState } from 'react';
import type { TalkView } from '../talk/slides';
import { EmbedLayout } from './layouts/EmbedLayout';
import { PageLayout } from './layouts/PageLayout';
import { TalkLayout } from './layouts/TalkLayout';
import { readUrl } from './params';
import { useLab } from './useLab';
import { useNextStep } from './useNextStep';
import { usePermalink } from './usePermalink';
import { useTestHandle } from './testHandle';

/**
 * search: the permalink the page opens at. navigate: open another one in
 * place (a talk's slide whose live state is another scene's).
 */
export function App({ search, navigate }: { search: string; navigate: (search: string) => void }) {
  // Every URL parameter, read and checked in one place (params.ts).
  const url = useMemo(() => readUrl(search), [search]);
  const initial = url.settings;
  const { scene, talk, embed, deck } = initial;
  const lab = useLab(initial, url.notices);
  const { settings, run, compared, error, step, state, step2, state2, seek, playing } = lab;
  // The talk's slide and the live slide whose state the demo shows: the permalink has the slide.
  const [talkView, setTalkView] = useState<TalkView>({ slide: initial.slide, live: initial.live, zoom: false, black: false });
  usePermalink({ initial, run, compare: settings.compare, step, slide: talkView.slide, playing });
  useTestHandle({ scene: scene.id, settings, run, error, step, state, seek, compared, step2, state2, traceTitle: `${scene.title}, kernel ${run?.variant ?? settings.variant}, seed ${run?.seed ?? settings.seed}` });
  const nextStep = useNextStep(lab);

  if (embed) return <EmbedLayout lab={lab} />;
  if (talk && deck) return <TalkLayout lab={lab} view={talkView} setView={setTalkView} navigate={navigate} nextStep={nextStep} />;
  return <PageLayout lab={lab} nextStep={nextStep} />;
}
