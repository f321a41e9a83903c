/**
 * Wire schemas of the storage volume requests (spec "Storage volumes"; note that create/edit and
 * attach/detach name their fields differently). Built on first use, like those in schemas.ts.
 */
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { MAX_VOLUME_GB, validateVolumeName } from '../model/volume';
import { LooseRecord, lazy, rule, shownText } from './schemas';

const volumeSize = (field: string) =>
  z
    .int({ error: () => l10n.t('{0} must be a whole number of GB.', field) })
    .check(
      z.gte(1, { error: () => l10n.t('A volume needs at least 1 GB.') }),
      z.lte(MAX_VOLUME_GB, { error: () => l10n.t('At most {0} GB can be requested.', MAX_VOLUME_GB) }),
    );

/** POST /storage/create. */
export const VolumeCreateRequest = lazy(() =>
  z.strictObject({
    size: volumeSize('size'),
    deletion_protection: z.boolean({ error: () => l10n.t('deletion_protection is required.') }),
    name: z.optional(z.string().check(rule(validateVolumeName))),
  }),
);
export type VolumeCreateRequest = z.infer<ReturnType<typeof VolumeCreateRequest>>;

/** PATCH /storage/edit/{storage_id}: at least one field; growth is checked by the caller (it knows the size). */
export const VolumeEditRequest = lazy(() =>
  z
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
            message: l10n.t('Nothing to change: give tp_storage_name, size_gb or deletion_protection.'),
          });
        }
      }),
    ),
);
export type VolumeEditRequest = z.infer<ReturnType<typeof VolumeEditRequest>>;

const id = (field: string) => {
  const required = { error: () => l10n.t('{0} is required.', field) };
  return z.string(required).check(z.trim(), z.minLength(1, required));
};

/** POST /storage/attach: one volume, a list of clusters. */
export const VolumeAttachRequest = lazy(() =>
  z.strictObject({
    storage_id: id('storage_id'),
    cluster_ids: z
      .array(id('cluster_ids'))
      .check(z.minLength(1, { error: () => l10n.t('Give at least one cluster to attach to.') })),
  }),
);
export type VolumeAttachRequest = z.infer<ReturnType<typeof VolumeAttachRequest>>;

/** POST /storage/detach: one volume, one cluster. */
export const VolumeDetachRequest = lazy(() =>
  z.strictObject({
    storage_id: id('storage_id'),
    cluster_id: id('cluster_id'),
  }),
);
export type VolumeDetachRequest = z.infer<ReturnType<typeof VolumeDetachRequest>>;

export const VolumeCreateResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    request_id: z.optional(z.nullable(z.string())),
    storage_id: z.optional(z.nullable(z.string())),
  }),
);
export type VolumeCreateResponse = z.infer<ReturnType<typeof VolumeCreateResponse>>;

export const VolumeAttachResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    request_ids: z.optional(z.nullable(z.array(z.string()))),
    request_id: z.optional(z.nullable(z.string())),
  }),
);
export type VolumeAttachResponse = z.infer<ReturnType<typeof VolumeAttachResponse>>;

export const VolumeListResponse = lazy(() =>
  z.looseObject({
    message: shownText(),
    volumes: z.optional(z.nullable(z.array(LooseRecord()))),
    storage: z.optional(z.nullable(z.array(LooseRecord()))),
  }),
);
export type VolumeListResponse = z.infer<ReturnType<typeof VolumeListResponse>>;
