// SPDX-License-Identifier: GPL-2.0-only
// The run button of a figures panel, or, while it runs, how many runs of
// how many are done, on how many workers, a progress bar and Cancel.
export interface RunProgress {
  done: number; // runs finished
  total: number;
  what: string; // the last run that finished, or what is starting
  workers: number; // side by side (the measurement's pool)
}

export function MeasureControls({ running, onRun, onCancel, label, testId }: {
  running: RunProgress | null;
  onRun: () => void;
  onCancel: () => void;
  label: string;
  testId: string; // prefix: <testId>.progress, .cancel, .run
}) {
  return running ? (
    <p role="status" className="progress" data-testid={`${testId}.progress`} data-workers={running.workers}>
      {running.done} of {running.total} runs done ({running.what}), {running.workers} at a time…{' '}
      <progress max={running.total} value={running.done} />{' '}
      <button type="button" onClick={onCancel} data-testid={`${testId}.cancel`}>
        Cancel
      </button>
    </p>
  ) : (
    <button type="button" onClick={onRun} data-testid={`${testId}.run`}>
      {label}
    </button>
  );
}
