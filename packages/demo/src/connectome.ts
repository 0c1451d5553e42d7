/**
 * The demo's own connectome: its catalog with the three `connectome://` resources added, the
 * declared graph read from that catalog, and each tool mapped to the source file implementing it.
 * Module names are written as `palisade-mcp-static` writes them with `root` at this package
 * (`src/catalog.ts`), so a host that merges a static read of `src/` (`staticToDeclared`) gets a
 * graph in which the tools' edges meet the code.
 *
 * The observed graph is whatever the running collector saw: `main.ts` starts one before serving.
 * Without it, reading `connectome://observed` or `connectome://diff` is refused by name.
 */
import { createServer, type Server } from 'palisade-mcp';
import { connectomeResources, declaredFromCatalog, type Graph } from 'palisade-mcp-connectome';
import { demoCatalog } from './catalog.js';

/** Tool name to its module: every demo tool is written in `src/catalog.ts`. */
export const DEMO_TOOL_MODULES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries((demoCatalog.tools ?? []).map((tool) => [tool.name, 'src/catalog.ts'])),
);

/** The demo server, its catalog carrying `connectome://declared`, `observed` and `diff`. */
export function createDemoServer(): Server {
  // The declared graph reads the server the resources are part of, so it is read at read time.
  const self: { server?: Server } = {};
  const declared = (): Graph => declaredFromCatalog(self.server!, { modules: DEMO_TOOL_MODULES });
  self.server = createServer({
    ...demoCatalog,
    resources: [...(demoCatalog.resources ?? []), ...connectomeResources({ declared })],
  });
  return self.server;
}
