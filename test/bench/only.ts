// Which part of the bench this run measures (test/bench/run.ts's usage): `--only node`, or env
// TENSORPOOL_BENCH_ONLY=s3 | jobLog | firstTree | gpu | sync | notebook; none of them: everything.
export const ONLY_NODE = process.argv.slice(2).join(' ').includes('--only node');
/** env TENSORPOOL_BENCH_ONLY=s3: the object-storage steps alone (for A/B runs), figures to bench-s3.json. */
export const ONLY_S3 = process.env.TENSORPOOL_BENCH_ONLY === 's3';
export const ONLY_JOB_LOG = process.env.TENSORPOOL_BENCH_ONLY === 'jobLog';
/** env TENSORPOOL_BENCH_ONLY=firstTree: the launches only (activation, time to first tree). */
export const ONLY_FIRST_TREE = process.env.TENSORPOOL_BENCH_ONLY === 'firstTree';
/** env TENSORPOOL_BENCH_ONLY=gpu: the launches, then the GPU rows only. */
export const ONLY_GPU = process.env.TENSORPOOL_BENCH_ONLY === 'gpu';
/** env TENSORPOOL_BENCH_ONLY=sync: the launches, then the folder-sync rows only. */
export const ONLY_SYNC = process.env.TENSORPOOL_BENCH_ONLY === 'sync';
/** env TENSORPOOL_BENCH_ONLY=notebook: the launches, then the notebook rows only. */
export const ONLY_NOTEBOOK = process.env.TENSORPOOL_BENCH_ONLY === 'notebook';
