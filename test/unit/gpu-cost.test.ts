/**
 * Cost maths (src/model/gpu/cost.ts) and the idle guard's state machine (idleGuard.ts).
 */
import * as assert from 'node:assert/strict';
import {
  EMPTY_IDLE_GUARD,
  burnRate,
  costSoFar,
  dontAsk,
  forget,
  formatHourly,
  formatMoney,
  idleFor,
  keep,
  observe,
  runwayHours,
  runwayPhrase,
  type IdleGuardState,
  type Observation,
} from '../../src/model/gpu';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('GPU cost: estimates, burn rate and runway', () => {
  it('cost so far is rate × hours since the start, never negative', () => {
    assert.equal(costSoFar(19.92, 0, 2 * HOUR), 39.84);
    assert.equal(costSoFar(10, 0, 30 * MIN), 5);
    assert.equal(costSoFar(10, 5 * HOUR, 0), 0, 'a start in the future costs nothing yet');
    assert.equal(costSoFar(Number.NaN, 0, HOUR), 0);
  });

  it('burn rate sums known prices and counts the unpriced', () => {
    assert.deepEqual(burnRate([{ hourlyRate: 19.92 }, { hourlyRate: 0.2 }, { hourlyRate: undefined }]), {
      perHour: 20.12,
      unpriced: 1,
      priced: 2,
    });
    assert.deepEqual(burnRate([]), { perHour: 0, unpriced: 0, priced: 0 });
  });

  it('runway is balance ÷ burn, with a phrase', () => {
    assert.equal(runwayHours(380, 20), 19);
    assert.equal(runwayPhrase(runwayHours(380, 20)!), 'about 19 h at this rate');
    assert.equal(runwayPhrase(0.58), 'about 35 min at this rate');
    assert.equal(runwayPhrase(0.001), 'about 1 min at this rate');
    assert.equal(runwayPhrase(100), 'about 4 days at this rate');
    assert.equal(runwayPhrase(0), 'no balance left at this rate');
    assert.equal(runwayHours(-5, 20), 0, 'a negative balance has no runway');
    assert.equal(runwayHours(100, 0), undefined, 'nothing burns: no runway to speak of');
    assert.equal(runwayHours(undefined, 20), undefined, 'unknown balance');
  });

  it('money: cents, or four decimals below ten cents', () => {
    assert.equal(formatMoney(19.92), '$19.92');
    assert.equal(formatMoney(0.0042), '$0.0042');
    assert.equal(formatMoney(0), '$0.00');
    assert.equal(formatHourly(2.5), '$2.50/h');
  });
});

describe('GPU cost: the idle guard', () => {
  const config = { periodMs: 30 * MIN, maxGapMs: 12 * MIN };
  /** Feed observations [minute, idle] for cluster c; returns the final state and the notifications. */
  const run = (obs: [number, boolean | undefined][], start: IdleGuardState = EMPTY_IDLE_GUARD) => {
    let state = start;
    const notes: [number, number][] = [];
    for (const [minute, idle] of obs) {
      const o: Observation = { time: minute * MIN, idle };
      const r = observe(state, 'c', o, config);
      state = r.state;
      if (r.notify) notes.push([minute, r.notify.idleMs / MIN]);
    }
    return { state, notes };
  };
  const every5 = (from: number, to: number, idle: boolean | undefined) => {
    const out: [number, boolean | undefined][] = [];
    for (let m = from; m <= to; m += 5) out.push([m, idle]);
    return out;
  };

  it('notifies once when the observed idle run reaches the period', () => {
    const { state, notes } = run(every5(0, 60, true));
    assert.deepEqual(notes, [[30, 30]]);
    assert.equal(idleFor(state, 'c'), 60 * MIN);
  });

  it('a busy observation ends the run and re-arms the notification', () => {
    const { notes } = run([...every5(0, 30, true), [35, false], ...every5(40, 75, true)]);
    assert.deepEqual(notes, [
      [30, 30],
      [70, 30],
    ]);
  });

  it('time not observed is never counted: a gap longer than maxGap starts the run again', () => {
    // 20 min idle, the window closed for 2 h, then idle again: 30 min of observation needed anew.
    const { notes } = run([...every5(0, 20, true), ...every5(140, 175, true)]);
    assert.deepEqual(notes, [[170, 30]]);
  });

  it('unknown observations change nothing (they widen the gap)', () => {
    const { notes } = run([...every5(0, 10, true), ...every5(15, 40, undefined), ...every5(45, 80, true)]);
    assert.deepEqual(notes, [[75, 30]], 'the run restarted at 45 (gap 10 → 45 > 12 min)');
    const short = run([...every5(0, 10, true), [15, undefined], ...every5(20, 40, true)]);
    assert.deepEqual(short.notes, [[30, 30]], 'a gap of 10 min keeps the run');
  });

  it('Keep stays quiet for the run; Don’t Ask for good; forget drops the cluster', () => {
    const kept = keep(run(every5(0, 10, true)).state, 'c');
    assert.deepEqual(run(every5(15, 60, true), kept).notes, [], 'kept during this run');
    const rearmed = run([[65, false], ...every5(70, 100, true)], run(every5(15, 60, true), kept).state);
    assert.deepEqual(rearmed.notes, [[100, 30]], 'busy again re-arms after Keep');

    const silenced = dontAsk(EMPTY_IDLE_GUARD, 'c');
    assert.deepEqual(dontAsk(silenced, 'c'), silenced, 'idempotent');
    assert.deepEqual(run([...every5(0, 40, true), [45, false], ...every5(50, 90, true)], silenced).notes, []);
    const gone = forget(run(every5(0, 20, true), silenced).state, 'c');
    assert.deepEqual(gone, EMPTY_IDLE_GUARD);
  });

  it('clusters are independent, and out-of-order observations are ignored', () => {
    let state = EMPTY_IDLE_GUARD;
    const notes: string[] = [];
    for (let m = 0; m <= 30; m += 5) {
      for (const [id, idle] of [
        ['a', true],
        ['b', m !== 15],
      ] as const) {
        const r = observe(state, id, { time: m * MIN, idle }, config);
        state = r.state;
        if (r.notify) notes.push(`${id}@${m}`);
      }
    }
    assert.deepEqual(notes, ['a@30']);
    const late = observe(state, 'b', { time: 0, idle: false }, config);
    assert.equal(late.state, state);
  });
});
