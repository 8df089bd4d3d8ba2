import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fetchRefusedPortIn, fetchRefusesPort } from './fetch-blocked-ports.ts';

describe('fetch-blocked ports', () => {
  it('names the ports this runtime’s fetch refuses, and none it accepts', async () => {
    expect(fetchRefusesPort(10080)).toBe(true);
    expect(fetchRefusesPort(6000)).toBe(true);
    expect(fetchRefusesPort(18545)).toBe(false);
    // The list is the runtime's own: fetch to 10080 fails before connecting, fetch to a free port connects.
    const refused = await fetch('http://127.0.0.1:10080/').catch((error: Error) => error.cause);
    expect((refused as Error).message).toBe('bad port');
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(fetchRefusesPort(port)).toBe(false);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('finds a refused port inside a range of consecutive ports', () => {
    expect(fetchRefusedPortIn(10078, 3)).toBe(10080);
    expect(fetchRefusedPortIn(10081, 3)).toBeUndefined();
    expect(fetchRefusedPortIn(18545, 3)).toBeUndefined();
  });
});
