/**
 * The shell blocks of a Markdown page marked for the rehearsal: a line `<!-- rehearsal: NAME -->` right
 * before a ```sh fence names that block. The rehearsal runs them as they are written, so the page and the
 * commands cannot drift apart; a marker without a block under it, or a name used twice, is an error here.
 */
const MARKER = /^<!--\s*rehearsal:\s*([a-z0-9-]+)\s*-->\s*$/;
const FENCE_OPEN = /^```(sh|bash)\s*$/;
const FENCE_CLOSE = /^```\s*$/;

export function extractRehearsalBlocks(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const blocks = new Map<string, string>();
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line);
    if (!marker) return;
    const name = marker[1]!;
    if (blocks.has(name)) throw new Error(`rehearsal block '${name}' is marked twice`);
    if (!FENCE_OPEN.test(lines[i + 1] ?? '')) {
      throw new Error(`rehearsal marker '${name}' (line ${i + 1}) is not followed by a \`\`\`sh block`);
    }
    const end = lines.findIndex((l, j) => j > i + 1 && FENCE_CLOSE.test(l));
    if (end < 0) throw new Error(`rehearsal block '${name}' is never closed`);
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
