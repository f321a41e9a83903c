/**
 * Wire schemas (zod/mini: a few KB instead of classic zod's ~450 KB).
 * Requests are strict and use the interface document's exact field names; responses are lenient:
 * unknown fields are kept (looseObject), optional fields optional, and whatever we cannot read is
 * reported as a BadResponseError by the transport rather than guessed at.
 */
import * as z from 'zod/mini';
import {
  MAX_NODES,
  validateClusterName,
  validateContainerImage,
  validateInstanceType,
  validatePublicKey,
} from '../model/validate';
import { MAX_VOLUME_GB, validateVolumeName } from '../model/volume';

const rule = (validate: (v: string) => string | undefined) =>
  z.superRefine((value: string, ctx) => {
    const problem = validate(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

const nodes = z
  .int('num_nodes must be a whole number.')
  .check(
    z.gte(1, 'A cluster needs at least 1 node.'),
    z.lte(MAX_NODES, `At most ${MAX_NODES} nodes can be requested.`),
  );

/** POST /cluster/create. The image travels as `container` or `experimental_container`, never both. */
export const ClusterCreateRequest = z
  .strictObject({
    instance_type: z.string('instance_type is required.').check(rule(validateInstanceType)),
    public_keys: z.optional(z.nullable(z.array(z.string().check(rule(validatePublicKey))))),
    num_nodes: z.optional(z.nullable(nodes)),
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
          message: 'Give the container image once: either container or experimental_container, not both.',
        });
      }
    }),
  );
export type ClusterCreateRequest = z.infer<typeof ClusterCreateRequest>;

/** PATCH /cluster/edit/{cluster}: at least one field (an empty edit is refused before sending). */
export const ClusterEditRequest = z
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
          message: 'Nothing to change: give a new cluster_name or a deletion_protection value.',
        });
      }
    }),
  );
export type ClusterEditRequest = z.infer<typeof ClusterEditRequest>;

export const SshKeyAddRequest = z.strictObject({
  public_key: z.string().check(rule(validatePublicKey)),
  name: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(128)))),
});
export type SshKeyAddRequest = z.infer<typeof SshKeyAddRequest>;

// ---- responses -------------------------------------------------------------------------------

const text = z.optional(z.nullable(z.string()));

export const MessageResponse = z.looseObject({ message: text });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const ClusterCreateResponse = z.looseObject({
  cluster_id: z.string(),
  message: text,
  instance_ids: z.optional(z.nullable(z.array(z.string()))),
  request_id: z.optional(z.nullable(z.string())),
});
export type ClusterCreateResponse = z.infer<typeof ClusterCreateResponse>;

export const EditResponse = z.looseObject({ message: text });
export type EditResponse = z.infer<typeof EditResponse>;

export const DestroyResponse = z.looseObject({
  message: text,
  request_id: z.optional(z.nullable(z.string())),
});
export type DestroyResponse = z.infer<typeof DestroyResponse>;

/** A cluster or instance record: every field is optional and loosely typed; normalize.ts reads it. */
export const LooseRecord = z.record(z.string(), z.unknown());
export type LooseRecord = z.infer<typeof LooseRecord>;

export const ClusterListResponse = z.looseObject({
  message: text,
  clusters: z.optional(z.nullable(z.array(LooseRecord))),
});
export type ClusterListResponse = z.infer<typeof ClusterListResponse>;

export const ClusterInfoResponse = z.looseObject({
  message: text,
  cluster: z.optional(z.nullable(LooseRecord)),
});
export type ClusterInfoResponse = z.infer<typeof ClusterInfoResponse>;

export const RequestInfo = z.looseObject({
  request_id: z.string(),
  request_type: text,
  status: z.string(),
  created_at: text,
  object_id: text,
  external_message: text,
});
export type RequestInfo = z.infer<typeof RequestInfo>;

export const SshCommandResponse = z.looseObject({ command: z.string(), message: text });
export type SshCommandResponse = z.infer<typeof SshCommandResponse>;

export const Account = LooseRecord;
export type Account = LooseRecord;

export const OrganizationInfo = z.looseObject({
  org_name: text,
  members: z.optional(z.nullable(z.array(z.looseObject({ uid: text, email: text })))),
  balance: z.optional(z.nullable(z.union([z.number(), z.string()]))),
});
export type OrganizationInfo = z.infer<typeof OrganizationInfo>;

// The official client reads only `message`: key_id may be missing.
export const SshKeyAddResponse = z.looseObject({ key_id: text, message: text });
export type SshKeyAddResponse = z.infer<typeof SshKeyAddResponse>;

export const SshKeyListResponse = z.looseObject({
  message: text,
  keys: z.optional(z.nullable(z.array(z.union([z.string(), LooseRecord])))),
});
export type SshKeyListResponse = z.infer<typeof SshKeyListResponse>;

const objectStorageFields = {
  org_id: z.string(),
  access_key_id: z.string(),
  secret_access_key: z.string(),
  endpoint: z.string(),
  region: z.string(),
  profile_id: text,
  iam_username: text,
  status: text,
  created_at: text,
  updated_at: text,
};
/** POST /object-storage/enable and GET /object-storage/credentials (and rotate-keys). */
export const ObjectStorageCredentials = z.looseObject(objectStorageFields);
export type ObjectStorageCredentials = z.infer<typeof ObjectStorageCredentials>;
/** The credentials record without its secret: what the store and the views hold (the secret lives
 *  only in SecretStorage). The schema's known fields, not the loose record's index signature, so
 *  the secret cannot come back in through it. */
export type PublicCredentials = Readonly<
  Omit<z.infer<z.ZodMiniObject<typeof objectStorageFields>>, 'secret_access_key'>
>;

export const AwsConfigureResponse = z.looseObject({
  profile_name: text,
  credentials_file: text,
  config_file: text,
  endpoint: text,
});
export type AwsConfigureResponse = z.infer<typeof AwsConfigureResponse>;

export const RcloneConfigureResponse = z.looseObject({ rclone_config: text, remote_name: text });
export type RcloneConfigureResponse = z.infer<typeof RcloneConfigureResponse>;

export const BucketListResponse = z.looseObject({
  message: text,
  buckets: z.optional(z.nullable(z.array(z.union([z.string(), LooseRecord])))),
});
export type BucketListResponse = z.infer<typeof BucketListResponse>;

/** The FastAPI 422 body. */
export const HttpValidationError = z.looseObject({
  detail: z.array(
    z.looseObject({
      loc: z.optional(z.array(z.union([z.string(), z.number()]))),
      msg: z.optional(z.string()),
      type: z.optional(z.string()),
    }),
  ),
});

// ---- storage volumes (spec "Storage volumes"; note create/edit and attach/detach name fields differently)

const volumeSize = (field: string) =>
  z
    .int(`${field} must be a whole number of GB.`)
    .check(
      z.gte(1, 'A volume needs at least 1 GB.'),
      z.lte(MAX_VOLUME_GB, `At most ${MAX_VOLUME_GB} GB can be requested.`),
    );

/** POST /storage/create. */
export const VolumeCreateRequest = z.strictObject({
  size: volumeSize('size'),
  deletion_protection: z.boolean('deletion_protection is required.'),
  name: z.optional(z.string().check(rule(validateVolumeName))),
});
export type VolumeCreateRequest = z.infer<typeof VolumeCreateRequest>;

/** PATCH /storage/edit/{storage_id}: at least one field; growth is checked by the caller (it knows the size). */
export const VolumeEditRequest = z
  .strictObject({
    tp_storage_name: z.optional(z.string().check(rule(validateVolumeName))),
    deletion_protection: z.optional(z.boolean()),
    size_gb: z.optional(volumeSize('size_gb')),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.tp_storage_name == null && body.deletion_protection == null && body.size_gb == null) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          input: body,
          message: 'Nothing to change: give tp_storage_name, size_gb or deletion_protection.',
        });
      }
    }),
  );
export type VolumeEditRequest = z.infer<typeof VolumeEditRequest>;

const id = (field: string) =>
  z.string(`${field} is required.`).check(z.trim(), z.minLength(1, `${field} is required.`));

/** POST /storage/attach: one volume, a list of clusters. */
export const VolumeAttachRequest = z.strictObject({
  storage_id: id('storage_id'),
  cluster_ids: z.array(id('cluster_ids')).check(z.minLength(1, 'Give at least one cluster to attach to.')),
});
export type VolumeAttachRequest = z.infer<typeof VolumeAttachRequest>;

/** POST /storage/detach: one volume, one cluster. */
export const VolumeDetachRequest = z.strictObject({
  storage_id: id('storage_id'),
  cluster_id: id('cluster_id'),
});
export type VolumeDetachRequest = z.infer<typeof VolumeDetachRequest>;

export const VolumeCreateResponse = z.looseObject({
  message: text,
  request_id: z.optional(z.nullable(z.string())),
  storage_id: z.optional(z.nullable(z.string())),
});
export type VolumeCreateResponse = z.infer<typeof VolumeCreateResponse>;

export const VolumeAttachResponse = z.looseObject({
  message: text,
  request_ids: z.optional(z.nullable(z.array(z.string()))),
  request_id: z.optional(z.nullable(z.string())),
});
export type VolumeAttachResponse = z.infer<typeof VolumeAttachResponse>;

export const VolumeListResponse = z.looseObject({
  message: text,
  volumes: z.optional(z.nullable(z.array(LooseRecord))),
  storage: z.optional(z.nullable(z.array(LooseRecord))),
});
export type VolumeListResponse = z.infer<typeof VolumeListResponse>;
