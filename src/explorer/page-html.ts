/**
 * The explorer's one HTML document, served for every page path (the page routes itself). It names the
 * bundled script and stylesheet and, on the devnet, carries the devnet's access key so the page opens with
 * it filled in. The policy header lets the page load only its own files and talk only to this server.
 */
import type { PageBundle } from './build-page.ts';
import { EXPLORER_ASSETS_PATH, EXPLORER_PATH } from './constants.ts';

export const PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

export function pageHtml(bundle: PageBundle, devnetAccessKey: string | undefined): string {
  const key = devnetAccessKey
    ? `\n<meta name="switchyard-devnet-key" content="${escapeHtml(devnetAccessKey)}">`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchyard explorer</title>
<meta name="switchyard-explorer-base" content="${EXPLORER_PATH}">${key}
<link rel="stylesheet" href="${EXPLORER_ASSETS_PATH}/${bundle.stylesheet.name}">
<script type="module" src="${EXPLORER_ASSETS_PATH}/${bundle.script.name}"></script>
</head>
<body>
<div id="app"><noscript>The Switchyard explorer needs JavaScript.</noscript></div>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
