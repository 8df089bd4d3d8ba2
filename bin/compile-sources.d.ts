/** See compile-sources.js. */
export function compiledEntry(entry: string): Promise<string>;
export function compileScript(entryFile: string, outfile: string): Promise<void>;
