/** Absolute path of the tiebreak module for this platform (with its suffix). */
export function getLoadablePath(): string;
/** Loads tiebreak into a better-sqlite3, node:sqlite (opened with
 *  { allowExtension: true }) or bun:sqlite database; extension loading is
 *  left as the caller had it. */
export function load(db: { loadExtension(path: string): unknown }): void;
declare const tiebreak: { getLoadablePath: typeof getLoadablePath; load: typeof load };
export default tiebreak;
