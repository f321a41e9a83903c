/**
 * What the reliability suite counts. Tests say which subjects they cover (a fault kind, a bad input,
 * a network check, ...) when they are defined; after the mocha run a subject is "handled" only if
 * every test covering it ran and passed. Numeric findings (secrets found, duplicate creates) are
 * added by the tests that look for them. Nothing here is a hard-coded figure: every count comes
 * from what ran. Used in plain Node (bdd) and in the extension host (tdd); no `vscode` import.
 */
import type Mocha from 'mocha';

export interface SubjectTally {
  /** Tests covering the subject. */
  tests: number;
  /** Of those, how many ran and passed. */
  passed: number;
}

/** What one part (Node, or the extension host) reports; the entry point merges the parts. */
export interface PartFigures {
  subjects: Record<string, SubjectTally>;
  /** Secrets found anywhere they must not be (must be 0), and the places that were searched. */
  secretsFound: number;
  secretFindings: string[];
  placesSearched: number;
  /** Mutations the engine received beyond one per confirmation / client call, every operation (must be 0). */
  duplicateCreates: number;
  /** Confirmations (or client calls) of a non-idempotent operation made under a connection fault. */
  createConfirmations: number;
  /** The same two figures per operation ('create cluster', 'create volume', 'attach volume', 'push job'). */
  mutations?: Record<string, { confirmations: number; duplicates: number }>;
  /** Config corpus, when the part ran it. */
  configs?: { total: number; roundTripped: number; byFormat: Record<string, number>; failures: string[] };
}

class Ledger {
  private readonly covered: Array<{ test: Mocha.Test; subjects: string[] }> = [];
  readonly numbers = { secretsFound: 0, placesSearched: 0, duplicateCreates: 0, createConfirmations: 0 };
  readonly secretFindings: string[] = [];
  configs: PartFigures['configs'];

  /** Mark `test` as evidence for each subject (`fault:500`, `bad:numNodes:-1`, ...). Returns the test. */
  cover<T extends Mocha.Test>(test: T, ...subjects: string[]): T {
    this.covered.push({ test, subjects });
    return test;
  }

  /** Record secrets found in one place (0 is recorded too: the place was searched). */
  searched(place: string, findings: readonly string[]): void {
    this.numbers.placesSearched++;
    this.numbers.secretsFound += findings.length;
    for (const f of findings) this.secretFindings.push(`${place}: ${f}`);
  }

  readonly mutations: NonNullable<PartFigures['mutations']> = {};

  /** Cluster creates: confirmations (or client calls) under a fault; `creates` is what the engine received. */
  createsFor(confirmations: number, creates: number): void {
    this.mutationsFor('create cluster', confirmations, creates);
  }

  /** A non-idempotent `operation` confirmed `confirmations` times under a fault; `sent`: what the engine got. */
  mutationsFor(operation: string, confirmations: number, sent: number): void {
    const duplicates = Math.max(0, sent - confirmations);
    this.numbers.createConfirmations += confirmations;
    this.numbers.duplicateCreates += duplicates;
    const m = (this.mutations[operation] ??= { confirmations: 0, duplicates: 0 });
    m.confirmations += confirmations;
    m.duplicates += duplicates;
  }

  figures(): PartFigures {
    const subjects: Record<string, SubjectTally> = {};
    for (const { test, subjects: names } of this.covered) {
      for (const name of names) {
        const t = (subjects[name] ??= { tests: 0, passed: 0 });
        t.tests++;
        if (test.state === 'passed') t.passed++;
      }
    }
    return {
      subjects,
      ...this.numbers,
      secretFindings: [...this.secretFindings],
      configs: this.configs,
      mutations: structuredClone(this.mutations),
    };
  }
}

/** The suite-wide ledger of this process (one per part). */
export const ledger = new Ledger();

/** Merge the parts' figures: subjects add up, numbers add up. */
export function mergeFigures(parts: ReadonlyArray<PartFigures | undefined>): PartFigures {
  const out: PartFigures = {
    subjects: {},
    secretsFound: 0,
    secretFindings: [],
    placesSearched: 0,
    duplicateCreates: 0,
    createConfirmations: 0,
    mutations: {},
  };
  for (const p of parts) {
    if (!p) continue;
    for (const [name, t] of Object.entries(p.subjects)) {
      const m = (out.subjects[name] ??= { tests: 0, passed: 0 });
      m.tests += t.tests;
      m.passed += t.passed;
    }
    out.secretsFound += p.secretsFound;
    out.secretFindings.push(...p.secretFindings);
    out.placesSearched += p.placesSearched;
    out.duplicateCreates += p.duplicateCreates;
    out.createConfirmations += p.createConfirmations;
    for (const [op, m] of Object.entries(p.mutations ?? {})) {
      const o = (out.mutations![op] ??= { confirmations: 0, duplicates: 0 });
      o.confirmations += m.confirmations;
      o.duplicates += m.duplicates;
    }
    if (p.configs) out.configs = p.configs;
  }
  return out;
}

/** How many of `ids` (the catalogue of an area) are handled: covered by at least one test, all passed. */
export function handled(
  figures: PartFigures,
  ids: readonly string[],
): { handled: number; total: number; missing: string[] } {
  const missing = ids.filter((id) => {
    const t = figures.subjects[id];
    return !t || t.tests === 0 || t.passed !== t.tests;
  });
  return { handled: ids.length - missing.length, total: ids.length, missing };
}
