// SPDX-License-Identifier: GPL-2.0-only
// The embed (embed=1): the scene, its code and the controls alone, for an
// iframe, with a link that opens the same state in the lab.
import { Notices } from '../Notices';
import { ScenePicker } from '../Landing';
import { Stage, StageCode } from '../Stage';
import type { Lab } from '../useLab';
import { cleanLink, openInLabLink } from '../url';
import { Narration, RunControls, usePageKeys } from './shared';

export function EmbedLayout({ lab }: { lab: Lab }) {
  const { initial: { scene }, run, error, state, step, reading, seek, onProgram, notices, settings } = lab;
  const { stageRef, helpDialog } = usePageKeys(lab);
  return (
    <div className="app embed" data-testid={run ? 'scene.ready' : 'scene.loading'}>
      <Notices notices={notices} clean={cleanLink({ scene: scene.id, embed: true })} />
      <RunControls lab={lab} />
      {error && (
        <p className="error" role="alert" data-testid="scene.error">
          {error}
        </p>
      )}
      {run && state != null && (
        <main className="layout stage" tabIndex={-1} ref={stageRef} aria-label="The scene" data-testid="stage">
          <div className="left">
            <Stage scene={scene} run={run} state={state} step={step} onSeek={seek} onProgram={onProgram} />
          </div>
          <div className="right">
            <StageCode log={run.log} step={reading} />
          </div>
        </main>
      )}
      <div className="embed-foot muted">
        <a href={openInLabLink()} target="_blank" rel="noreferrer" data-testid="embed.open">
          Open in Reclaim Lab
        </a>{' '}
        — {scene.title}, kernel {run?.variant ?? settings.variant}
        <ScenePicker current={scene.id} target="_blank" />
      </div>
      <Narration lab={lab} />
      {helpDialog}
    </div>
  );
}
