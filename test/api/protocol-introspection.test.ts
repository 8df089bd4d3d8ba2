/**
 * GetProtocolContracts, GetSupportedIntentProtocols and GetDefaultIntentProtocol on both dialects: the one
 * intent protocol `v1`, its contracts under the reference's names (the seed's on /rpc/Service), and a protocol
 * this server does not run refused naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/api/server.ts';
import { CHAINS, KEY, post, startTestServer } from './fixtures.ts';

let server: ApiServer;
let url: string;

beforeAll(async () => {
  ({ server, url } = await startTestServer());
});
afterAll(() => server.close());

const contracts = CHAINS[0]!.contracts;
const call = (dialect: string, method: string, body: unknown = {}) =>
  post(url, `/rpc/${dialect}/${method}`, body, { 'x-access-key': KEY });

describe('protocol introspection', () => {
  it('names one protocol, v1, supported and default, on both dialects', async () => {
    for (const dialect of ['Trails', 'Service']) {
      expect((await call(dialect, 'GetSupportedIntentProtocols')).json).toEqual({ versions: ['v1'] });
      expect((await call(dialect, 'GetDefaultIntentProtocol')).json).toEqual({ version: 'v1' });
    }
  });

  it("answers the protocol's contracts by the reference's names on /rpc/Trails and the seed's on /rpc/Service", async () => {
    for (const body of [{}, { intentProtocol: 'v1' }]) {
      const trails = await call('Trails', 'GetProtocolContracts', body);
      expect(trails.json).toEqual({
        TrailsContracts: {
          trailsIntentEntrypointAddress: contracts.intentFactory,
          trailsRouterAddress: contracts.originSettler,
          trailsRouterShimAddress: contracts.destinationSettler,
          trailsUtilsAddress: contracts.intentAccountImplementation,
        },
      });
      const service = await call('Service', 'GetProtocolContracts', body);
      expect(service.json).toEqual({
        ServiceContracts: {
          serviceIntentEntrypointAddress: contracts.intentFactory,
          serviceRouterAddress: contracts.originSettler,
          serviceRouterShimAddress: contracts.destinationSettler,
          serviceUtilsAddress: contracts.intentAccountImplementation,
        },
      });
    }
  });

  it('refuses a protocol it does not run, naming the field', async () => {
    const refused = await call('Trails', 'GetProtocolContracts', { intentProtocol: 'v1_5' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      error: 'InvalidArgument',
      code: 2000,
      message: 'intentProtocol: must be v1, the one intent protocol this server runs (got "v1_5")',
      cause: 'field=intentProtocol',
    });
  });

  it('needs an access key like the other catalogue methods', async () => {
    const anonymous = await post(url, '/rpc/Trails/GetSupportedIntentProtocols', {});
    expect(anonymous.json.error).toBe('Unauthorized');
  });
});
