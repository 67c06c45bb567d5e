/** `/_emulator/dns`, mounted by control.ts behind its guard: the emulated TXT records custom-domain verification reads (docs/control-plane.md#emulated-dns). */
import { controlDnsOperations as ops } from '../operations/control-dns.js';
import type { Runtime } from '../runtime.js';
import { getTxtRecord, listTxtRecords, removeTxtRecord, setTxtRecord } from '../services/dns-records.js';
import { newRouter } from './router.js';

export function controlDnsRoutes(rt: Runtime) {
  return newRouter()
    .openapi(ops.listDnsTxtRecords, async (c) => c.json({ data: await listTxtRecords(rt) }, 200))
    .openapi(ops.getDnsTxtRecord, async (c) => c.json({ data: await getTxtRecord(rt, c.req.valid('param').name) }, 200))
    .openapi(ops.setDnsTxtRecord, async (c) => c.json({ data: await setTxtRecord(rt, c.req.valid('param').name, c.req.valid('json').values) }, 200))
    .openapi(ops.removeDnsTxtRecord, async (c) => c.json({ data: await removeTxtRecord(rt, c.req.valid('param').name) }, 200));
}
