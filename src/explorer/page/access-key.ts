/**
 * The access key the page reads with: kept in the tab's session storage (gone when the tab closes), or on
 * the devnet the key the server put into the page. The key only ever goes to this server, in X-Access-Key.
 */
const STORAGE_KEY = 'switchyard-explorer-access-key';

export function devnetKey(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="switchyard-devnet-key"]');
  return meta?.content || undefined;
}

export function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage refused (a private window's quota): the key still works until the page reloads.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {}
}
