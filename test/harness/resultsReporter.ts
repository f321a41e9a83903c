// Mocha's dot reporter, plus test-results/tests-<suite>.json (see counts.ts) when the run ends.
// usage: mocha --reporter out/test/harness/resultsReporter.js --reporter-option suite=unit ...
import Mocha from 'mocha';
import { writeCounts } from './counts';

class ResultsReporter extends Mocha.reporters.Dot {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const suite = String((options?.reporterOptions as Record<string, unknown> | undefined)?.suite ?? 'mocha');
    const started = Date.now();
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const stats = runner.stats;
      writeCounts({
        suite,
        passed: stats?.passes ?? 0,
        failed: stats?.failures ?? 0,
        pending: stats?.pending ?? 0,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        options: '',
      });
    });
  }
}

export = ResultsReporter;
