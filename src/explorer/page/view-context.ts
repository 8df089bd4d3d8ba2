/** What every view gets. */
import type { Api } from './api.ts';
import type { Catalogue } from './catalogue.ts';

export interface ViewContext {
  api: Api;
  catalogue: Catalogue;
  /** Goes to a page path without reloading. */
  navigate(path: string, options?: { replace?: boolean }): void;
  /** Aborted when the person leaves the view: live updates and refreshes stop. */
  signal: AbortSignal;
  /** Read out by screen readers (a polite live region). */
  announce(text: string): void;
}
