/**
 * The shell blocks of a Markdown page marked for a test: a line `<!-- rehearsal: NAME -->` right before a
 * ```sh fence names that block for the rehearsal (`<!-- processes: NAME -->` for the multi-process test:
 * another label, another test). The tests run them as they are written, so the page and the commands cannot
 * drift apart; a marker without a block under it, or a name used twice, is an error here.
 */
const markerOf = (label: string) => new RegExp(`^<!--\\s*${label}:\\s*([a-z0-9-]+)\\s*-->\\s*$`);
const FENCE_OPEN = /^```(sh|bash)\s*$/;
const FENCE_CLOSE = /^```\s*$/;

export function extractRehearsalBlocks(markdown: string): Map<string, string> {
  return extractMarkedBlocks(markdown, 'rehearsal');
}

/** The blocks marked `<!-- LABEL: NAME -->`, by name, in page order. */
export function extractMarkedBlocks(markdown: string, label: string): Map<string, string> {
  const MARKER = markerOf(label);
  const lines = markdown.split('\n');
  const blocks = new Map<string, string>();
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line);
    if (!marker) return;
    const name = marker[1]!;
    if (blocks.has(name)) throw new Error(`${label} block '${name}' is marked twice`);
    if (!FENCE_OPEN.test(lines[i + 1] ?? '')) {
      throw new Error(`${label} marker '${name}' (line ${i + 1}) is not followed by a \`\`\`sh block`);
    }
    const end = lines.findIndex((l, j) => j > i + 1 && FENCE_CLOSE.test(l));
    if (end < 0) throw new Error(`${label} block '${name}' is never closed`);
    blocks.set(name, lines.slice(i + 2, end).join('\n'));
  });
  return blocks;
}

/** The shell variables a script reads (`$NAME` or `${NAME}`). */
export function variablesOf(script: string): string[] {
  const found = new Set<string>();
  for (const match of script.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g)) found.add(match[1]!);
  return [...found].sort();
}
