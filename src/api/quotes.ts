/**
 * Price quotes: `GET /cluster/quote?instance_type=&num_nodes=` and `GET /storage/quote?size_gb=`, both
 * answering `{hourly_rate}` (seen in a third-party SDK, not in the official client: optional). A quote
 * is a `PriceAnswer`, never an exception, for anything the server or the network does: a 404 (the
 * route is missing, or the service has no price for that choice) is `unavailable`, any other failure
 * (5xx, 401, timeout, an answer without a readable rate) is `failed`. Callers then show no price;
 * they never guess one. Two things still reject: input that fails the local rules (ValidationError,
 * before any request) and the caller's own cancellation (CancelledError).
 */
import * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import { validateInstanceType, validateNumNodes } from '../model/validate';
import { validateVolumeSize } from '../model/volume';
import { isTensorPoolError, ValidationError } from './errors';
import type { CallOptions, Query, Transport } from './http';
import { lazy, shownText } from './schemas';

export type PriceAnswer =
  | { readonly kind: 'price'; readonly hourlyRate: number }
  | {
      readonly kind: 'no-price';
      /** `unavailable`: 404 (no such route, or no price for it); `failed`: anything else went wrong. */
      readonly reason: 'unavailable' | 'failed';
      /** What went wrong, for the log (redacted like every client error message). */
      readonly detail: string;
    };

/** Lenient: `hourly_rate` as a number or a numeric string; other fields kept and ignored. */
export const QuoteResponse = lazy(() =>
  z.looseObject({
    hourly_rate: z.optional(z.nullable(z.union([z.number(), z.string()]))),
    message: shownText(),
  }),
);
export type QuoteResponse = z.infer<ReturnType<typeof QuoteResponse>>;

function rate(v: number | string | null | undefined): number | undefined {
  const n = typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

function invalid(path: string, field: string, message: string): ValidationError {
  return new ValidationError(message, { method: 'GET', path }, [{ field, message }], true);
}

async function quote(
  transport: Transport,
  path: string,
  query: Query,
  opts?: CallOptions,
): Promise<PriceAnswer> {
  try {
    const answer = await transport.call({ method: 'GET', path, query, schema: QuoteResponse() }, opts);
    const hourlyRate = rate(answer.data.hourly_rate);
    if (hourlyRate === undefined)
      return { kind: 'no-price', reason: 'failed', detail: l10n.t('The answer has no hourly_rate.') };
    return { kind: 'price', hourlyRate };
  } catch (err) {
    if (!isTensorPoolError(err)) throw err;
    if (err.kind === 'cancelled') throw err;
    const reason = err.kind === 'not-found' ? 'unavailable' : 'failed';
    return { kind: 'no-price', reason, detail: err.message };
  }
}

/** The hourly price of `numNodes` nodes of `instanceType`. */
export async function clusterQuote(
  transport: Transport,
  instanceType: string,
  numNodes: number,
  opts?: CallOptions,
): Promise<PriceAnswer> {
  const path = '/cluster/quote';
  const typeProblem = typeof instanceType === 'string' ? validateInstanceType(instanceType) : undefined;
  if (typeof instanceType !== 'string' || typeProblem)
    throw invalid(path, 'instance_type', typeProblem ?? l10n.t('instance_type is required.'));
  const nodesProblem = Number.isInteger(numNodes) ? validateNumNodes(numNodes) : undefined;
  if (!Number.isInteger(numNodes) || nodesProblem)
    throw invalid(path, 'num_nodes', nodesProblem ?? l10n.t('num_nodes must be a whole number.'));
  return quote(transport, path, { instance_type: instanceType, num_nodes: numNodes }, opts);
}

/** The hourly price of a storage volume of `sizeGb` GB. */
export async function storageQuote(
  transport: Transport,
  sizeGb: number,
  opts?: CallOptions,
): Promise<PriceAnswer> {
  const path = '/storage/quote';
  const problem = Number.isInteger(sizeGb) ? validateVolumeSize(sizeGb) : undefined;
  if (!Number.isInteger(sizeGb) || problem)
    throw invalid(path, 'size_gb', problem ?? l10n.t('{0} must be a whole number of GB.', 'size_gb'));
  return quote(transport, path, { size_gb: sizeGb }, opts);
}
