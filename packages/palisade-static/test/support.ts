import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Incomplete, StaticGraph } from '../src/index.js';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

const made: string[] = [];

export function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'palisade-static-'));
  made.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function edgeList(graph: StaticGraph): string[] {
  return graph.edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`);
}

export function listed(graph: StaticGraph, reason: Incomplete['reason']): Incomplete[] {
  return graph.incomplete.filter((i) => i.reason === reason);
}
