// SPDX-License-Identifier: GPL-2.0-only
// The run button of a figures panel, or, while it runs, which run of how
// many, a progress bar and Cancel.
export interface RunProgress {
  done: number;
  total: number;
  what: string;
}

export function MeasureControls({ running, onRun, onCancel, label, testId }: {
  running: RunProgress | null;
  onRun: () => void;
  onCancel: () => void;
  label: string;
  testId: string; // prefix: <testId>.progress, .cancel, .run
}) {
  return running ? (
    <p role="status" className="progress" data-testid={`${testId}.progress`}>
      {running.what}: run {running.done + 1} of {running.total}… <progress max={running.total} value={running.done} />{' '}
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
