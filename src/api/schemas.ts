/**
 * Wire schemas (zod/mini: a few KB instead of classic zod's ~450 KB).
 * Each export is a memoised getter: `S.ClusterCreateRequest()` is the schema, `S.ClusterCreateRequest` its type.
 * Requests are strict and use the interface document's exact field names; responses are lenient:
 * unknown fields are kept (looseObject), optional fields optional, and whatever we cannot read is
 * reported as a BadResponseError by the transport rather than guessed at.
 */
import { inertLinks } from '../model/shownText';
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import {
  MAX_NODES,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validatePublicKey,
} from '../model/validate';

/** Each schema is built the first time it is used, not while the API layer loads: building them all
 *  (zod/mini objects, checks, unions) was a noticeable part of the layer's first use. */
export function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

export const rule = (validate: (v: string) => string | undefined) =>
  z.superRefine((value: string, ctx) => {
    const problem = validate(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

const nodes = () =>
  z
    .int({ error: () => l10n.t('num_nodes must be a whole number.') })
    .check(
      z.gte(1, { error: () => l10n.t('A cluster needs at least 1 node.') }),
      z.lte(MAX_NODES, { error: () => l10n.t('At most {0} nodes can be requested.', MAX_NODES) }),
    );

/** POST /cluster/create. The image travels as `container` or `experimental_container`, never both. */
export const ClusterCreateRequest = lazy(() =>
  z
    .strictObject({
      instance_type: z
        .string({ error: () => l10n.t('instance_type is required.') })
        .check(rule(validateInstanceType)),
      public_keys: z.optional(z.nullable(z.array(z.string().check(rule(validatePublicKey))))),
      num_nodes: z.optional(z.nullable(nodes())),
      tp_cluster_name: z.optional(z.nullable(z.string().check(rule(validateClusterName)))),
      container: z.optional(z.nullable(z.string().check(rule(validateContainerImage)))),
      experimental_container: z.optional(z.nullable(z.string().check(rule(validateContainerImage)))),
      deletion_protection: z.optional(z.nullable(z.boolean())),
      save_keys: z.optional(z.boolean()),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.container != null && body.experimental_container != null) {
          ctx.addIssue({
            code: 'custom',
            path: ['container'],
            input: body,
            message: l10n.t(
              'Give the container image once: either container or experimental_container, not both.',
            ),
          });
        }
      }),
    ),
);
export type ClusterCreateRequest = z.infer<ReturnType<typeof ClusterCreateRequest>>;

/** PATCH /cluster/edit/{cluster}: at least one field (an empty edit is refused before sending). */
export const ClusterEditRequest = lazy(() =>
  z
    .strictObject({
      cluster_name: z.optional(z.nullable(z.string().check(rule(validateClusterName)))),
      deletion_protection: z.optional(z.nullable(z.boolean())),
    })
    .check(
      z.superRefine((body, ctx) => {
        if (body.cluster_name == null && body.deletion_protection == null) {
          ctx.addIssue({
            code: 'custom',
            path: [],
            input: body,
            message: l10n.t('Nothing to change: give a new cluster_name or a deletion_protection value.'),
          });
        }
      }),
    ),
);
export type ClusterEditRequest = z.infer<ReturnType<typeof ClusterEditRequest>>;

export const SshKeyAddRequest = lazy(() =>
  z.strictObject({
    public_key: z.string().check(rule(validatePublicKey)),
    name: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(128)))),
  }),
);
export type SshKeyAddRequest = z.infer<ReturnType<typeof SshKeyAddRequest>>;

// ---- responses -------------------------------------------------------------------------------

export const text = lazy(() => z.optional(z.nullable(z.string())));

/** A message of the service's that the UI may show in a notification: no link VS Code would render there
 *  (inertLinks), whatever the service wrote. */
export const shownText = lazy(() =>
  z.pipe(
    text(),
    z.transform((m: string | null | undefined) => (typeof m === 'string' ? inertLinks(m) : m)),
  ),
);

export const MessageResponse = lazy(() => z.looseObject({ message: shownText() }));
export type MessageResponse = z.infer<ReturnType<typeof MessageResponse>>;

export const ClusterCreateResponse = lazy(() =>
  z.looseObject({
    cluster_id: z.string(),
    message: shownText(),
    instance_ids: z.optional(z.nullable(z.array(z.string()))),
    request_id: z.optional(z.nullable(z.string())),
  }),
);
export type ClusterCreateResponse = z.infer<ReturnType<typeof ClusterCreateResponse>>;

export const EditResponse = lazy(() => z.looseObject({ message: shownText() }));
export type EditResponse = z.infer<ReturnType<typeof EditResponse>>;

export const DestroyResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    request_id: z.optional(z.nullable(z.string())),
  }),
);
export type DestroyResponse = z.infer<ReturnType<typeof DestroyResponse>>;

/** A cluster or instance record: every field is optional and loosely typed; normalize.ts reads it. */
export const LooseRecord = lazy(() => z.record(z.string(), z.unknown()));
export type LooseRecord = z.infer<ReturnType<typeof LooseRecord>>;

export const ClusterListResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    clusters: z.optional(z.nullable(z.array(LooseRecord()))),
  }),
);
export type ClusterListResponse = z.infer<ReturnType<typeof ClusterListResponse>>;

export const ClusterInfoResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    cluster: z.optional(z.nullable(LooseRecord())),
  }),
);
export type ClusterInfoResponse = z.infer<ReturnType<typeof ClusterInfoResponse>>;

export const RequestInfo = lazy(() =>
  z.looseObject({
    request_id: z.string(),
    request_type: text(),
    status: z.string(),
    created_at: text(),
    object_id: text(),
    // Shown in the notification at an operation's end.
    external_message: shownText(),
  }),
);
export type RequestInfo = z.infer<ReturnType<typeof RequestInfo>>;

export const SshCommandResponse = lazy(() => z.looseObject({ command: z.string(), message: shownText() }));
export type SshCommandResponse = z.infer<ReturnType<typeof SshCommandResponse>>;

/** What GET /me answers: no published shape, read loosely (src/model/account.ts finds the label). @alias */
export const Account = LooseRecord;
export type Account = LooseRecord;

export const OrganizationInfo = lazy(() =>
  z.looseObject({
    org_name: text(),
    members: z.optional(z.nullable(z.array(z.looseObject({ uid: text(), email: text() })))),
    balance: z.optional(z.nullable(z.union([z.number(), z.string()]))),
  }),
);
export type OrganizationInfo = z.infer<ReturnType<typeof OrganizationInfo>>;

// The official client reads only `message`: key_id may be missing.
export const SshKeyAddResponse = lazy(() => z.looseObject({ key_id: text(), message: shownText() }));
export type SshKeyAddResponse = z.infer<ReturnType<typeof SshKeyAddResponse>>;

export const SshKeyListResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    keys: z.optional(z.nullable(z.array(z.union([z.string(), LooseRecord()])))),
  }),
);
export type SshKeyListResponse = z.infer<ReturnType<typeof SshKeyListResponse>>;

const objectStorageFields = lazy(() => ({
  org_id: z.string(),
  access_key_id: z.string(),
  secret_access_key: z.string(),
  endpoint: z.string(),
  region: z.string(),
  profile_id: text(),
  iam_username: text(),
  status: text(),
  created_at: text(),
  updated_at: text(),
}));
/** POST /object-storage/enable and GET /object-storage/credentials (and rotate-keys). */
export const ObjectStorageCredentials = lazy(() => z.looseObject(objectStorageFields()));
export type ObjectStorageCredentials = z.infer<ReturnType<typeof ObjectStorageCredentials>>;
/** The credentials record without its secret: what the store and the views hold (the secret lives
 *  only in SecretStorage). The schema's known fields, not the loose record's index signature, so
 *  the secret cannot come back in through it. */
export type PublicCredentials = Readonly<
  Omit<z.infer<z.ZodMiniObject<ReturnType<typeof objectStorageFields>>>, 'secret_access_key'>
>;

export const AwsConfigureResponse = lazy(() =>
  z.looseObject({
    profile_name: text(),
    credentials_file: text(),
    config_file: text(),
    endpoint: text(),
  }),
);
export type AwsConfigureResponse = z.infer<ReturnType<typeof AwsConfigureResponse>>;

export const RcloneConfigureResponse = lazy(() =>
  z.looseObject({ rclone_config: text(), remote_name: text() }),
);
export type RcloneConfigureResponse = z.infer<ReturnType<typeof RcloneConfigureResponse>>;

export const BucketListResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    buckets: z.optional(z.nullable(z.array(z.union([z.string(), LooseRecord()])))),
  }),
);
export type BucketListResponse = z.infer<ReturnType<typeof BucketListResponse>>;

/** The FastAPI 422 body. */
export const HttpValidationError = lazy(() =>
  z.looseObject({
    detail: z.array(
      z.looseObject({
        loc: z.optional(z.array(z.union([z.string(), z.number()]))),
        msg: z.optional(z.string()),
        type: z.optional(z.string()),
      }),
    ),
  }),
);
