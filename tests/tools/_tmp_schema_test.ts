import { z } from "zod";
import { applyPatchTool } from "../../src/tools/apply_patch.ts";
Deno.test("x", () => console.log(JSON.stringify(z.toJSONSchema(applyPatchTool.input))));
