// The id of the bench's reference extension (./reference.ts builds it; ./host reads its activation marks).
export const REFERENCE_EXTENSION_ID = 'tensorpool-bench.bench-reference';
