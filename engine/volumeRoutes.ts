// The storage-volume routes (spec "Storage volumes"). Validation, shapes and texts: volumeWire.ts.

import { json } from './http';
import { body, del, flag, get, patch, post, type Route } from './routes';
import { issue, validationReply } from './validate';
import {
  refusal,
  validateAttach,
  validateDetach,
  validateVolumeCreate,
  validateVolumeEdit,
  volumeInfoText,
  volumeJson,
  volumeListText,
} from './volumeWire';
import { mountPath } from './volumes';

// --- routes ----------------------------------------------------------------------------------------

/** A function, not a constant: routes.ts imports this module and calls it once its helpers exist. */
export function volumeRoutes(): Route[] {
  return [
    post('/storage/create', (ctx) => {
      const b = body(ctx, validateVolumeCreate);
      if ('reply' in b) return b.reply;
      const made = ctx.state.volumes.create(ctx.user, b.value, ctx.now);
      if (!made.ok) return refusal(made.code, made.message);
      const { volume, request } = made.value;
      return json(202, {
        message: `Storage volume creation initiated: ${volume.name} (${volume.id}), ${volume.sizeGb} GB. Track it with request ${request.id}.`,
        request_id: request.id,
        storage_id: volume.id,
      });
    }),

    get('/storage/list', (ctx) => {
      const org = flag(ctx, 'include_org');
      if ('reply' in org) return org.reply;
      const views = ctx.state.volumes.list(ctx.user, org.value, ctx.now);
      const mode = ctx.state.config.listMode;
      const out: Record<string, unknown> = {};
      if (mode !== 'structured') out.message = volumeListText(views, org.value);
      if (mode !== 'text') out.volumes = views.map(volumeJson);
      return json(200, out);
    }),

    get('/storage/info/:storage_id', (ctx) => {
      const v = ctx.state.volumes.find(ctx.user, ctx.params.storage_id, ctx.now);
      if (!v) return refusal(404, `Storage volume '${ctx.params.storage_id}' not found`);
      const view = ctx.state.volumes.view(v, ctx.now);
      const mode = ctx.state.config.listMode;
      const out: Record<string, unknown> = {};
      if (mode !== 'structured') out.message = volumeInfoText(view);
      if (mode !== 'text') Object.assign(out, volumeJson(view));
      return json(200, out);
    }),

    patch('/storage/edit/:storage_id', (ctx) => {
      const b = body(ctx, validateVolumeEdit);
      if ('reply' in b) return b.reply;
      const v = ctx.state.volumes.find(ctx.user, ctx.params.storage_id, ctx.now);
      if (v && b.value.sizeGb !== null && b.value.sizeGb < v.sizeGb) {
        const msg = `size can only grow: the volume has ${v.sizeGb} GB, ${b.value.sizeGb} GB is smaller`;
        return validationReply([
          issue('value_error', ['body', 'size_gb'], `Value error, ${msg}`, b.value.sizeGb, { error: msg }),
        ]);
      }
      const edited = ctx.state.volumes.edit(ctx.user, ctx.params.storage_id, b.value, ctx.now);
      if (!edited.ok) return refusal(edited.code, edited.message);
      const { volume, changes } = edited.value;
      return json(202, {
        message: changes.length
          ? `Storage volume ${volume.id}: ${changes.join(', ')}`
          : `Storage volume ${volume.id}: nothing to change`,
      });
    }),

    post('/storage/attach', (ctx) => {
      const b = body(ctx, validateAttach);
      if ('reply' in b) return b.reply;
      const done = ctx.state.volumes.attach(ctx.user, b.value.storageId, b.value.clusterIds, ctx.now);
      if (!done.ok) return refusal(done.code, done.message);
      return json(202, {
        message:
          `Attaching storage volume ${done.value.volume.id} to ${b.value.clusterIds.join(', ')}. ` +
          `Every node of the cluster restarts; it is mounted at ${mountPath(done.value.volume.id)}.`,
        request_ids: done.value.requests.map((r) => r.id),
      });
    }),

    post('/storage/detach', (ctx) => {
      const b = body(ctx, validateDetach);
      if ('reply' in b) return b.reply;
      const done = ctx.state.volumes.detach(ctx.user, b.value.storageId, b.value.clusterId, ctx.now);
      if (!done.ok) return refusal(done.code, done.message);
      return json(202, {
        message: `Detaching storage volume ${done.value.volume.id} from ${b.value.clusterId}.`,
        request_id: done.value.request.id,
      });
    }),

    del('/storage/:storage_id', (ctx) => {
      const done = ctx.state.volumes.destroy(ctx.user, ctx.params.storage_id, ctx.now);
      if (!done.ok) return refusal(done.code, done.message);
      const { volume, request, already } = done.value;
      return json(202, {
        message: already
          ? `Storage volume ${volume.id} is already being destroyed. Track it with request ${request.id}.`
          : `Storage volume destruction initiated: ${volume.name} (${volume.id}). Track it with request ${request.id}.`,
        request_id: request.id,
      });
    }),
  ];
}
