// The one way tests build the TensorPool API client (src/api) against an engine or any other server:
// its URL and token (read at each request), a test user agent, and whatever a test sets over that.
import { TensorPoolClient, type ClientOptions } from '../../src/api';

export function apiClient(
  target: { url: string; token?: string },
  over: Partial<ClientOptions> = {},
): TensorPoolClient {
  return new TensorPoolClient({
    baseUrl: target.url,
    getToken: () => target.token,
    userAgent: 'tensorpool-vscode/test',
    ...over,
  });
}
