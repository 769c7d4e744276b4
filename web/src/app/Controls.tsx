// SPDX-License-Identifier: GPL-2.0-only
// Play / pause, step back and forward, speed, seed. Every control is a
// native button or input, so each is reachable and operable by keyboard.
import { useEffect, useState, type ReactNode } from 'react';
import { isValidSeed, openAtWordSize, POLICIES, type PolicyName } from './url';
import { MEMORY_MODELS, type MemoryModel } from '../engine/generated/events';
import { kernelLabel } from '../engine/manifest';
import { PAGE_WORD_SIZE, type WordSize } from '../engine/wordsize';
import './Controls.css';

interface Props {
  disabled: boolean;
  playing: boolean;
  onPlay: () => void;
  step: number;
  /** The step the counter and the scrubber show: the step, or while playing the reading step (usePlayback.ts). */
  shown: number;
  last: number;
  onSeek: (s: number) => void;
  speed: number;
  onSpeed: (s: number) => void;
  seed: number;
  onSeed: (s: number) => void;
  policy: PolicyName;
  onPolicy: (p: PolicyName) => void;
  memory: MemoryModel;
  onMemory: (m: MemoryModel) => void;
  variants: string[];
  variant: string;
  onVariant: (v: string) => void;
  compare: string | null;
  onCompare: (v: string | null) => void;
  /** The page's own actions on the run (the trace, this state on a slide, the keys), after the seed. */
  tools?: ReactNode;
}

const POLICY_LABELS: Record<PolicyName, string> = {
  timed: 'timed (earliest clock)',
  rr: 'round-robin',
  random: 'random',
};

/** The memory models as the header names them (docs/memory-model.md). */
const MEMORY_LABELS: Record<MemoryModel, string> = {
  sc: 'sc (sequentially consistent)',
  tso: 'tso (x86-64)',
  relaxed: 'relaxed (LKMM)',
};

const SPEEDS = [1, 4, 16, 64, 256, 1024];

export function Controls(p: Props) {
  const [seedText, setSeedText] = useState(String(p.seed));
  const [seedError, setSeedError] = useState<string | null>(null);
  useEffect(() => setSeedText(String(p.seed)), [p.seed]);

  const applySeed = () => {
    const v = Number(seedText.trim());
    if (seedText.trim() === '' || !isValidSeed(v)) {
      setSeedError('A seed is a whole number from 0 to 4294967295.');
      return;
    }
    setSeedError(null);
    p.onSeed(v);
  };

  return (
    <nav className="controls" aria-label="Simulation controls">
      <button type="button" onClick={() => p.onSeek(0)} disabled={p.disabled || p.step <= 0} title="First event (Home)" data-testid="scene.first">
        « First
      </button>
      <button type="button" onClick={() => p.onSeek(p.step - 1)} disabled={p.disabled || p.step <= 0} title="Step back (←)" data-testid="scene.back">
        ◀ Back
      </button>
      <button type="button" className="primary" onClick={p.onPlay} disabled={p.disabled} title="Play or pause (space)" data-testid="scene.play">
        {p.playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button type="button" onClick={() => p.onSeek(p.step + 1)} disabled={p.disabled || p.step >= p.last} title="Step forward (→)" data-testid="scene.step">
        Step ▶
      </button>
      <button type="button" onClick={() => p.onSeek(p.last)} disabled={p.disabled || p.step >= p.last} title="Last event (End)" data-testid="scene.last">
        Last »
      </button>
      {/* Events are named by their index, 0 to the last, here as everywhere (marks, reports, the footer). */}
      <span className="counter" data-testid="scene.counter">
        event <b>{p.disabled ? '–' : p.shown}</b> of {p.disabled ? '–' : `0–${p.last}`}
      </span>
      <label>
        speed{' '}
        <select value={p.speed} onChange={(e) => p.onSpeed(Number(e.target.value))} data-testid="scene.speed">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s} events/s
            </option>
          ))}
        </select>
      </label>
      {p.variants.length > 1 && (
        <label>
          kernel{' '}
          <select className="kernel-select" value={p.variant} onChange={(e) => p.onVariant(e.target.value)} data-testid="scene.variant">
            {p.variants.map((v) => (
              <option key={v} value={v}>
                {kernelLabel(v)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        machine{' '}
        <select
          value={PAGE_WORD_SIZE}
          onChange={(e) => openAtWordSize(Number(e.target.value) as WordSize)}
          data-testid="scene.bits"
          title="The simulated machine's word size (BITS_PER_LONG): 64-bit, as the kernels people run, or 32-bit; the page reloads (URL bits=)"
        >
          <option value={64}>64-bit</option>
          <option value={32}>32-bit</option>
        </select>
      </label>
      {p.variants.length > 1 && (
        <label>
          beside it{' '}
          <select
            className="kernel-select"
            value={p.compare ?? ''}
            onChange={(e) => p.onCompare(e.target.value || null)}
            data-testid="scene.compare"
            title="Run a second kernel with the same scenario, seed and policy, in lock-step by virtual time"
          >
            <option value="">nothing</option>
            {p.variants
              .filter((v) => v !== p.variant)
              .map((v) => (
                <option key={v} value={v}>
                  {kernelLabel(v)}, in lock-step
                </option>
              ))}
          </select>
        </label>
      )}
      <label>
        scheduler{' '}
        <select value={p.policy} onChange={(e) => p.onPolicy(e.target.value as PolicyName)} data-testid="scene.policy">
          {POLICIES.map((x) => (
            <option key={x} value={x}>
              {POLICY_LABELS[x]}
            </option>
          ))}
        </select>
      </label>
      <label title="What a load may return and when a store becomes visible to the other CPUs (docs/memory-model.md)">
        memory{' '}
        <select value={p.memory} onChange={(e) => p.onMemory(e.target.value as MemoryModel)} data-testid="scene.memory">
          {MEMORY_MODELS.map((x) => (
            <option key={x} value={x}>
              {MEMORY_LABELS[x]}
            </option>
          ))}
        </select>
      </label>
      <form
        className="seed"
        onSubmit={(e) => {
          e.preventDefault();
          applySeed();
        }}
      >
        <label>
          seed{' '}
          <input
            value={seedText}
            inputMode="numeric"
            size={8}
            onChange={(e) => setSeedText(e.target.value)}
            aria-invalid={seedError ? true : undefined}
            aria-describedby={seedError ? 'seed-error' : undefined}
            data-testid="scene.seed"
          />
        </label>
        <button type="submit">Run</button>
        {seedError && (
          <span id="seed-error" className="error" role="alert">
            {seedError}
          </span>
        )}
      </form>
      {p.tools && <span className="run-tools">{p.tools}</span>}
      {/* On a row of its own, the full width of the bar: a given position is always the same event. */}
      <input
        type="range"
        min={0}
        max={Math.max(0, p.last)}
        value={p.shown}
        disabled={p.disabled}
        onChange={(e) => p.onSeek(Number(e.target.value))}
        aria-label="Scrub through the events"
        className="scrub"
        data-testid="scene.scrub"
      />
    </nav>
  );
}
