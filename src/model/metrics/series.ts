/**
 * One metric's points against one x (a step-like key, or time), bounded: at most `cap` points however
 * long the job runs, in constant memory and amortised constant time per point.
 *
 * Downsampling keeps peaks: the points live in buckets of consecutive points; a bucket keeps its lowest
 * and its highest point (the first of each on a tie), in x order. Buckets start one point each (the first
 * points are kept exactly); when `cap / 2 - 1` buckets are full, neighbours merge pairwise (the lower
 * low, the higher high) and each later bucket takes twice as many points. So the lowest and the highest
 * value ever seen are always among the points, x never goes backwards within them, and a spike anywhere
 * stays visible.
 *
 * x must not go back. When it does (a run resumed from a checkpoint, restarted from step 0), the points
 * at or after the new x are dropped first, as TensorBoard purges "out of order" steps after a restart: the
 * series shows the run that is going on. For time, a clock stepping back is kept at the last x instead.
 * No `vscode` import.
 */
export interface SeriesPoints {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
}

export const DEFAULT_CAP = 2000;

export class MetricSeries {
  private readonly buckets: number;
  // per bucket: its low point (x, y), its high point (x, y), how many points it took
  private loX: Float64Array;
  private loY: Float64Array;
  private hiX: Float64Array;
  private hiY: Float64Array;
  private taken: Float64Array;
  /** Closed buckets; the open one is at index `closed`. */
  private closed = 0;
  private perBucket = 1;
  private lastX = -Infinity;
  private lastY = NaN;
  private seen = 0;

  constructor(
    readonly name: string,
    /** The x key (`step`, `epoch`... as MetricPoint.xKey) or `time` (milliseconds since 1970). */
    readonly xKey: string,
    readonly cap = DEFAULT_CAP,
  ) {
    // eslint-disable-next-line tensorpool/l10n -- a programming error (a cap too small), never shown
    if (!(cap >= 6)) throw new RangeError(`cap ${cap} < 6`);
    // closed buckets (2 points each) + the open one (2 points) within cap; an even count halves evenly
    this.buckets = Math.floor(cap / 2) - 1 - ((Math.floor(cap / 2) - 1) % 2);
    const size = this.buckets + 1;
    this.loX = new Float64Array(size);
    this.loY = new Float64Array(size);
    this.hiX = new Float64Array(size);
    this.hiY = new Float64Array(size);
    this.taken = new Float64Array(size);
  }

  /** Points added since the series began (or was purged), kept or not. */
  get total(): number {
    return this.seen;
  }

  /** The newest point's x and value (NaN before the first). */
  get last(): { readonly x: number; readonly y: number } {
    return { x: this.seen > 0 ? this.lastX : NaN, y: this.lastY };
  }

  /** Adds a point; a value that is not finite, or an x that is not, is ignored. */
  add(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (x < this.lastX) {
      if (this.xKey === 'time') x = this.lastX;
      else this.purgeFrom(x);
    }
    this.lastX = x;
    this.lastY = y;
    this.seen++;
    const b = this.closed;
    if (this.taken[b] === 0) {
      this.loX[b] = this.hiX[b] = x;
      this.loY[b] = this.hiY[b] = y;
    } else if (y < this.loY[b]) {
      this.loX[b] = x;
      this.loY[b] = y;
    } else if (y > this.hiY[b]) {
      this.hiX[b] = x;
      this.hiY[b] = y;
    }
    if (++this.taken[b] < this.perBucket) return;
    this.closed++;
    if (this.closed === this.buckets) this.halve();
    this.taken[this.closed] = 0;
  }

  /** Merges neighbouring buckets pairwise; later buckets take twice as many points. */
  private halve(): void {
    const half = this.buckets / 2;
    for (let i = 0; i < half; i++) {
      const a = 2 * i;
      const b = a + 1;
      const lo = this.loY[b] < this.loY[a] ? b : a;
      const hi = this.hiY[b] > this.hiY[a] ? b : a;
      this.loX[i] = this.loX[lo];
      this.loY[i] = this.loY[lo];
      this.hiX[i] = this.hiX[hi];
      this.hiY[i] = this.hiY[hi];
      this.taken[i] = this.taken[a] + this.taken[b];
    }
    this.closed = half;
    this.perBucket *= 2;
  }

  /** The kept points in x order (at most `cap`). */
  points(): SeriesPoints {
    const last = this.taken[this.closed] > 0 ? this.closed : this.closed - 1;
    let n = 0;
    for (let b = 0; b <= last; b++) n += this.twoPoints(b) ? 2 : 1;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let k = 0;
    for (let b = 0; b <= last; b++) {
      const loFirst = this.loX[b] <= this.hiX[b];
      if (this.twoPoints(b)) {
        xs[k] = loFirst ? this.loX[b] : this.hiX[b];
        ys[k++] = loFirst ? this.loY[b] : this.hiY[b];
        xs[k] = loFirst ? this.hiX[b] : this.loX[b];
        ys[k++] = loFirst ? this.hiY[b] : this.loY[b];
      } else {
        xs[k] = this.loX[b];
        ys[k++] = this.loY[b];
      }
    }
    return { xs, ys };
  }

  /** How many points points() would give. */
  get size(): number {
    const last = this.taken[this.closed] > 0 ? this.closed : this.closed - 1;
    let n = 0;
    for (let b = 0; b <= last; b++) n += this.twoPoints(b) ? 2 : 1;
    return n;
  }

  private twoPoints(b: number): boolean {
    return this.loX[b] !== this.hiX[b] || this.loY[b] !== this.hiY[b];
  }

  /** Drops the points at or after x (see the file comment), keeping the earlier ones as they were kept. */
  private purgeFrom(x: number): void {
    const { xs, ys } = this.points();
    this.closed = 0;
    this.perBucket = 1;
    this.taken.fill(0);
    this.lastX = -Infinity;
    this.lastY = NaN;
    this.seen = 0;
    for (let i = 0; i < xs.length && xs[i] < x; i++) this.add(xs[i], ys[i]);
  }
}
