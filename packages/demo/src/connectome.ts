/**
 * The demo's own connectome: its catalog with the three `connectome://` resources added, the
 * declared graph read from that catalog, and each tool mapped to the source file implementing it.
 * Module names are written as `palisade-mcp-static` writes them with `root` at this package
 * (`src/catalog.ts`, `src/asking.ts`, `src/changes.ts`), so a host that merges a static read of
 * `src/` (`staticToDeclared`) gets a graph in which the tools' edges meet the code.
 *
 * The observed graph is whatever the running collector saw: `main.ts` starts one before serving.
 * Without it, reading `connectome://observed` or `connectome://diff` is refused by name.
 */
import { createServer, type Server } from 'palisade-mcp';
import { connectomeResources, declaredFromCatalog, type Graph } from 'palisade-mcp-connectome';
import { createDemoCatalog, demoCatalog } from './catalog.js';

/** The tools written outside `src/catalog.ts`, by the module that implements them. */
const WRITTEN_IN: Readonly<Record<string, string>> = {
  ask_model: 'src/asking.ts',
  ask_user: 'src/asking.ts',
  announce_tools_changed: 'src/changes.ts',
  wait: 'src/changes.ts',
};

/** Tool name to its module. */
export const DEMO_TOOL_MODULES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    (demoCatalog.tools ?? []).map((tool) => [tool.name, WRITTEN_IN[tool.name] ?? 'src/catalog.ts']),
  ),
);

/** The demo server, its catalog carrying `connectome://declared`, `observed` and `diff`. */
export function createDemoServer(): Server {
  // The declared graph reads the server the resources are part of, so it is read at read time.
  const self: { server?: Server } = {};
  const declared = (): Graph => declaredFromCatalog(self.server!, { modules: DEMO_TOOL_MODULES });
  // announce_tools_changed announces through this server, so the catalog is built for it.
  const catalog = createDemoCatalog(() => self.server!.notifyListChanged('tools'));
  self.server = createServer({
    ...catalog,
    resources: [...(catalog.resources ?? []), ...connectomeResources({ declared })],
  });
  return self.server;
}
