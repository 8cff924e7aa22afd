import type { ApiClient } from '../../../api/client.ts';
import type { Envelope } from '../../../protocol/envelope.ts';

/**
 * POST /user/modify-info as multipart/form-data (SPEC §7: nickname, avatar). The server reads
 * the `nickname` text part and the optional `avatar` file part; either may be sent alone.
 */
export function modifyInfo(api: ApiClient, fields: { nickname?: string; avatar?: File }): Promise<Envelope<unknown>> {
  const form = new FormData();
  if (fields.nickname !== undefined) form.append('nickname', fields.nickname.trim());
  if (fields.avatar !== undefined) form.append('avatar', fields.avatar, fields.avatar.name);
  return api.request<unknown>({ method: 'POST', path: '/user/modify-info', body: form });
}
