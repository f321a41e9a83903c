// Each top-level suite's wall time (hooks included), in run order, recorded from a mocha runner: the extension
// host test modules (integration, reliability) put it in their results and the harness prints the slowest.
import type Mocha from 'mocha';

export function suiteTimes(runner: Mocha.Runner): { title: string; ms: number }[] {
  const suites: { title: string; ms: number }[] = [];
  const starts = new Map<Mocha.Suite, number>();
  runner.on('suite', (suite) => {
    if (suite.parent?.root) starts.set(suite, Date.now());
  });
  runner.on('suite end', (suite) => {
    const start = starts.get(suite);
    if (start !== undefined) suites.push({ title: suite.title, ms: Date.now() - start });
  });
  return suites;
}
