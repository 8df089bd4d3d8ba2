/**
 * `switchyard webhooks` as an operator runs it (node bin/switchyard.js), on SQLite and on Postgres, with a
 * real receiver on loopback: add prints the id and secret once, list and log show the endpoint and its
 * attempts, test pings (signed, recorded), replay and resume set where deliveries go on from, remove; the
 * target guard refuses loopback unless the config or a devnet data dir allows it; bad input is refused
 * naming the flag; encrypt-secrets converts plain secrets once with WEBHOOK_SECRETS_KEY, after which only a
 * command with the key can sign; mid-rotation a command with both keys signs, encrypt-secrets moves secrets
 * to the new key and upgrades enc:v1 values to enc:v2.
 */
import { execFile } from 'node:child_process';
import { createSecretKey, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { WebhookSecretUnreadableError } from '../../src/store/errors.ts';
import { legacyV1Secret, newIntent } from '../../src/store/testing.ts';
import type { Store } from '../../src/store/types.ts';
import { describeEachDialect, rawExecute, rawQuery } from '../harness/database.ts';
import { loadDocsVerifier } from './support/docs-snippet.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/switchyard.js');

describeEachDialect('switchyard webhooks', ({ database }) => {
  let dataDir: string;
  let devnetDir: string;
  let configPath: string;
  let store: Store;
  let receiver: Receiver;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sw-hooks-cli-'));
    devnetDir = await mkdtemp(join(tmpdir(), 'sw-hooks-devnet-'));
    // What `switchyard start` leaves in its data dir; the command only looks for the file.
    await writeFile(join(devnetDir, 'devnet.json'), '{}\n');
    const { databaseUrl, sqlitePath } = database().options;
    configPath = join(dataDir, 'serve.json');
    await writeFile(
      configPath,
      JSON.stringify({
        ...(databaseUrl ? { databaseUrl } : { dataDir: join(sqlitePath!, '..') }),
        webhooks: { allowPrivateTargets: true },
        chains: [
          {
            chainId: 31337,
            name: 'Alpha',
            rpcUrls: ['http://127.0.0.1:8545'],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            tokens: [],
            contracts: {},
          },
        ],
      }),
    );
    store = await createStore({ log: createSilentLogger(), ...database().options });
    await store.projects.create('hooks-cli');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(devnetDir, { recursive: true, force: true });
  });

  /** The CLI on this block's database: --config (its store and policy), or the environment and --data-dir. */
  const cliWith = async (extraEnv: NodeJS.ProcessEnv, args: string[]) => {
    const { databaseUrl, sqlitePath } = database().options;
    const usesConfig = args.includes('--config');
    const env = {
      ...process.env,
      DATABASE_URL: usesConfig ? '' : (databaseUrl ?? ''),
      SWITCHYARD_DATA_DIR: sqlitePath ? join(sqlitePath, '..') : dataDir,
      WEBHOOK_SECRETS_KEY: '',
      ...extraEnv,
    };
    try {
      const { stdout, stderr } = await exec(process.execPath, [BIN, 'webhooks', ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const cli = (...args: string[]) => cliWith({}, args);
  const withConfig = (...args: string[]) => cli(...args, '--config', configPath);

  it('refuses a loopback URL unless the config or a devnet allows it; bad input names its flag', async () => {
    // Every one of these is refused and adds nothing: they run side by side, and the list after them is empty.
    const [refused, metadata, named, ftp, badEvents, nobody] = await Promise.all([
      cli('add', '--project', 'hooks-cli', '--url', receiver.url),
      cli('add', '--project', 'hooks-cli', '--url', 'http://169.254.169.254/latest'),
      cli('add', '--project', 'hooks-cli', '--url', 'http://localhost:9/x'),
      withConfig('add', '--project', 'hooks-cli', '--url', 'ftp://x.example/'),
      withConfig('add', '--project', 'hooks-cli', '--url', receiver.url, '--events', 'intent.done'),
      withConfig('add', '--project', 'nobody', '--url', receiver.url),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('webhook target 127.0.0.1 is a loopback or private-range address');
    expect(metadata.stderr).toContain('loopback or private-range');
    expect(named.stderr).toMatch(/localhost is (127\.0\.0\.1|::1), a loopback or private-range address/);
    expect(ftp.stderr).toContain('--url: must be an http:// or https:// URL, not ftp:');
    expect(badEvents.stderr).toContain("--events: 'intent.done' is not an event type or a prefix of one");
    expect(nobody.stderr).toContain("project 'nobody' does not exist");
    // A devnet's data dir allows loopback, as `switchyard start` does (its SQLite store, in that dir). That
    // store is another one, so its add runs beside the list of this one.
    const devnetStore = await createStore({
      log: createSilentLogger(),
      sqlitePath: join(devnetDir, 'switchyard.sqlite'),
    });
    await devnetStore.projects.create('devnet');
    await devnetStore.close();
    const [listed, devnet] = await Promise.all([
      cli('list', '--project', 'hooks-cli'),
      exec(
        process.execPath,
        [BIN, 'webhooks', 'add', '--project', 'devnet', '--url', receiver.url, '--data-dir', devnetDir],
        {
          env: { ...process.env, DATABASE_URL: '', SWITCHYARD_DATA_DIR: '' },
        },
      ),
    ]);
    expect(listed.stdout).toContain('has no webhook endpoints');
    expect(devnet.stdout).toMatch(/^id: 1\nsecret: whsec_/);
  });

  it('add, list, test, log, replay, resume and remove an endpoint', async () => {
    const added = await withConfig(
      'add',
      '--project',
      'hooks-cli',
      '--url',
      receiver.url,
      '--events',
      'intent.*',
    );
    expect(added.code).toBe(0);
    const [, id, secret] = /^id: (\d+)\nsecret: (whsec_[A-Za-z0-9_-]{43})\n$/.exec(added.stdout) ?? [];
    expect(id).toBeDefined();
    expect(added.stderr).toContain('The secret is shown only this once');

    const listed = await cli('list', '--project', 'hooks-cli');
    expect(listed.stdout).toMatch(
      new RegExp(`^${id}\\s+${receiver.url}\\s+intent\\.\\*\\s+active\\s+0\\s+0`, 'm'),
    );
    expect(listed.stdout).not.toContain(secret!);

    const pinged = await withConfig('test', '--project', 'hooks-cli', '--id', id!);
    expect(pinged.code).toBe(0);
    expect(pinged.stdout).toMatch(/HTTP 204 in \d+ ms/);
    const ping = receiver.received.at(-1)!;
    expect(ping.json).toMatchObject({ id: 0, type: 'ping', data: { endpointId: Number(id) } });
    const verify = await loadDocsVerifier();
    expect(verify(secret!, String(ping.headers['switchyard-signature']), ping.body)).toBe(true);
    // The log of the ping, beside a ping refused when the policy does not allow loopback (it fails and says why).
    const [logged, blocked] = await Promise.all([
      cli('log', '--project', 'hooks-cli', '--id', id!),
      cli('test', '--project', 'hooks-cli', '--id', id!),
    ]);
    expect(logged.stdout).toMatch(/\s0\s+ping\s+1\s+204\s/);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain('no answer (webhook target 127.0.0.1 is a loopback');

    // Three events; replay from a time before them, then from a duration, moves the cursor back.
    const project = await store.projects.findByName('hooks-cli');
    const before = new Date(Date.now() - 1_000);
    const { intentId } = await store.intents.insert(newIntent(project!.id));
    for (const to of ['COMMITTED', 'EXECUTING', 'SUCCEEDED'] as const)
      await store.intents.updateStatus({ intentId, to });
    // Commands refused on their input change nothing, so each runs beside the step before it.
    const [replayed, unparsed] = await Promise.all([
      cli('replay', '--project', 'hooks-cli', '--id', id!, '--since', before.toISOString()),
      cli('replay', '--project', 'hooks-cli', '--id', id!, '--since', '10 minutes'),
    ]);
    expect(replayed.stdout).toContain(`webhook endpoint ${id} replays from event 1`);
    expect((await store.webhooks.get({ projectId: project!.id, id: Number(id) }))?.handledSeq).toBe(0);
    expect(unparsed.stderr).toContain("--since: '10 minutes' is not a time");
    expect((await cli('replay', '--project', 'hooks-cli', '--id', id!, '--since', '0s')).stdout).toContain(
      'replays from event 4',
    );
    const [resumed, missing, malformedId] = await Promise.all([
      cli('resume', '--project', 'hooks-cli', '--id', id!),
      cli('remove', '--project', 'hooks-cli', '--id', '999'),
      cli('remove', '--project', 'hooks-cli', '--id', 'abc'),
    ]);
    expect(resumed.stdout).toContain(`webhook endpoint ${id} is active again, from event 4`);
    expect(missing.stderr).toContain('has no webhook endpoint 999');
    expect(malformedId.code).toBe(2);
    expect((await cli('remove', '--project', 'hooks-cli', '--id', id!)).stdout).toContain(
      `removed webhook endpoint ${id}`,
    );
    expect(await store.webhooks.get({ projectId: project!.id, id: Number(id) })).toBeUndefined();
  });

  it('encrypt-secrets: refuses without a key, encrypts plain secrets once; then only a command with the key signs', async () => {
    const KEY = randomBytes(32).toString('hex');
    const keyed = (...args: string[]) =>
      cliWith({ WEBHOOK_SECRETS_KEY: KEY }, [...args, '--config', configPath]);
    const project = await store.projects.findByName('hooks-cli');
    const column = async (id: string) =>
      (
        await rawQuery<{ secret: string }>(
          database(),
          `SELECT secret FROM webhook_endpoints WHERE id = ${Number(id)}`,
        )
      )[0]!.secret;

    const added = await withConfig('add', '--project', 'hooks-cli', '--url', receiver.url);
    const [, id, secret] = /^id: (\d+)\nsecret: (whsec_\S+)\n$/.exec(added.stdout) ?? [];
    expect(await column(id!)).toBe(secret);

    // Refused without a key, with a malformed one, and with --project: side by side, and none converts.
    const [refused, malformed, scoped] = await Promise.all([
      cli('encrypt-secrets'),
      cliWith({ WEBHOOK_SECRETS_KEY: KEY.slice(1) }, ['encrypt-secrets']),
      keyed('encrypt-secrets', '--project', 'hooks-cli'),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('encrypt-secrets needs WEBHOOK_SECRETS_KEY in the environment');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe(
      'switchyard: WEBHOOK_SECRETS_KEY must be 64 hex characters (32 bytes; `openssl rand -hex 32`), got 63 characters\n',
    );
    expect(scoped.code).toBe(2);
    expect(scoped.stderr).toContain('encrypt-secrets covers every project; drop --project');
    expect(await column(id!)).toBe(secret);

    const first = await keyed('encrypt-secrets');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^encrypted [1-9]\d* webhook signing secrets? in /);
    expect((await keyed('encrypt-secrets')).stdout).toMatch(/^encrypted 0 webhook signing secrets in /);
    expect(await column(id!)).toMatch(/^enc:v2:/);
    expect(await column(id!)).not.toContain(secret!);
    const unkeyed = await store.webhooks.get({ projectId: project!.id, id: Number(id) });
    expect(() => unkeyed!.readSecret()).toThrow(WebhookSecretUnreadableError);

    // With the key the ping is signed with the secret shown when it was added. Beside it, a second endpoint
    // added with the key (checked below), which sends nothing.
    const [pinged, second] = await Promise.all([
      keyed('test', '--project', 'hooks-cli', '--id', id!),
      keyed('add', '--project', 'hooks-cli', '--url', receiver.url),
    ]);
    expect(pinged.code).toBe(0);
    const verify = await loadDocsVerifier();
    /** The last ping the receiver got verifies with the secret shown when the endpoint was added. */
    const lastSignedWith = (plain: string) =>
      verify(
        plain,
        String(receiver.received.at(-1)!.headers['switchyard-signature']),
        receiver.received.at(-1)!.body,
      );
    expect(lastSignedWith(secret!)).toBe(true);
    // Without it the command says which endpoint and why, and sends nothing.
    const count = receiver.received.length;
    const blind = await withConfig('test', '--project', 'hooks-cli', '--id', id!);
    expect(blind.code).toBe(1);
    expect(blind.stderr).toBe(
      `switchyard: webhook endpoint ${id}: its signing secret is encrypted and this process has no WEBHOOK_SECRETS_KEY; ` +
        'every process of the deployment needs the same WEBHOOK_SECRETS_KEY\n',
    );
    expect(receiver.received.length).toBe(count);

    // Added with the key: stored encrypted from the start.
    const [, id2, secret2] = /^id: (\d+)\nsecret: (whsec_\S+)\n$/.exec(second.stdout) ?? [];
    expect(await column(id2!)).toMatch(/^enc:v2:/);
    expect(await column(id2!)).not.toContain(secret2!);

    // Rotating the key: the new key with the old one as WEBHOOK_SECRETS_PREVIOUS_KEY re-encrypts both, and
    // the ping is then signed, with the new key alone, by the secret shown when the endpoint was added.
    const NEW_KEY = randomBytes(32).toString('hex');
    const rotating = (...args: string[]) =>
      cliWith({ WEBHOOK_SECRETS_KEY: NEW_KEY, WEBHOOK_SECRETS_PREVIOUS_KEY: KEY }, [
        ...args,
        '--config',
        configPath,
      ]);
    const newKeyAlone = (...args: string[]) =>
      cliWith({ WEBHOOK_SECRETS_KEY: NEW_KEY }, [...args, '--config', configPath]);
    const before = await column(id!);
    // None of these three changes a secret, so they run side by side: encrypt-secrets with the new key alone
    // cannot open them; before encrypt-secrets has run, a command with both keys already signs with the
    // secret under the old one; the previous key alone is refused.
    const [unrotated, midway, previousAlone] = await Promise.all([
      newKeyAlone('encrypt-secrets'),
      rotating('test', '--project', 'hooks-cli', '--id', id!),
      cliWith({ WEBHOOK_SECRETS_PREVIOUS_KEY: KEY }, ['encrypt-secrets']),
    ]);
    expect(unrotated.code).toBe(1);
    expect(unrotated.stderr).toContain(
      `open with neither WEBHOOK_SECRETS_KEY (endpoints ${id}, ${id2}): set WEBHOOK_SECRETS_PREVIOUS_KEY`,
    );
    expect(midway.code).toBe(0);
    expect(lastSignedWith(secret!)).toBe(true);
    expect(await column(id!)).toBe(before);
    expect(previousAlone.code).toBe(1);
    expect(previousAlone.stderr).toContain(
      'switchyard: WEBHOOK_SECRETS_PREVIOUS_KEY is set without WEBHOOK_SECRETS_KEY',
    );
    const rotated = await rotating('encrypt-secrets');
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(
      /^encrypted 0 webhook signing secrets, re-encrypted 2 from WEBHOOK_SECRETS_PREVIOUS_KEY in /,
    );
    expect(await column(id!)).toMatch(/^enc:v2:/);
    expect(await column(id!)).not.toBe(before);
    const renewed = await newKeyAlone('test', '--project', 'hooks-cli', '--id', id!);
    expect(renewed.code).toBe(0);
    expect(lastSignedWith(secret!)).toBe(true);
    // A value an earlier release wrote (enc:v1:, not bound to its endpoint) is upgraded, counted, and still signs.
    const newKeyObject = createSecretKey(Buffer.from(NEW_KEY, 'hex'));
    await rawExecute(
      database(),
      `UPDATE webhook_endpoints SET secret = '${legacyV1Secret(newKeyObject, secret!)}' WHERE id = ${Number(id)}`,
    );
    const upgraded = await newKeyAlone('encrypt-secrets');
    expect(upgraded.code).toBe(0);
    expect(upgraded.stdout).toMatch(
      /^encrypted 0 webhook signing secrets, upgraded 1 from enc:v1 to enc:v2 in /,
    );
    expect(await column(id!)).toMatch(/^enc:v2:/);
    // A malformed previous key is refused before anything is read, so it runs beside the ping.
    const [afterUpgrade, malformedPrevious] = await Promise.all([
      newKeyAlone('test', '--project', 'hooks-cli', '--id', id!),
      cliWith({ WEBHOOK_SECRETS_KEY: NEW_KEY, WEBHOOK_SECRETS_PREVIOUS_KEY: 'x' }, [
        'encrypt-secrets',
        '--config',
        configPath,
      ]),
    ]);
    expect(afterUpgrade.code).toBe(0);
    expect(lastSignedWith(secret!)).toBe(true);
    expect(malformedPrevious.code).toBe(1);
    expect(malformedPrevious.stderr).toContain('WEBHOOK_SECRETS_PREVIOUS_KEY must be 64 hex characters');
    await Promise.all(
      [id, id2].map((endpoint) => newKeyAlone('remove', '--project', 'hooks-cli', '--id', endpoint!)),
    );
  });
});
