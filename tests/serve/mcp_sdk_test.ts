/**
 * The official MCP Python SDK (`mcp`, from the venv PATCHGYM_MCP_VENV names; see tests/_venv.ts)
 * drives one episode over `serve --http`'s `/mcp` with MCP's streamable HTTP transport. Without
 * that venv the test is skipped with one note.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Auth, newToken } from "../../src/serve/auth.ts";
import { TOOLS } from "../../src/tools/registry.ts";
import { MCP_VENV } from "../_venv.ts";
import { TASKS_DIR, withHttp } from "./_http.ts";

MCP_VENV.noteSkip("MCP SDK test");

Deno.test({
  name: "HttpFront serves a whole graded episode to the official MCP Python SDK",
  ignore: MCP_VENV.skip !== null,
  async fn() {
    // With a token, as every served front has: the SDK's httpx sends the URL's credentials as
    // HTTP Basic.
    const token = newToken();
    const auth = Auth.of([{ token, role: "drive" }], { maxEpisodes: 8, maxBodyBytes: 1 << 20 });
    await withHttp({ auth }, async ({ url: bare }) => {
      const url = bare.replace("http://", `http://patchgym:${token}@`);
      const script = fileURLToPath(new URL("_mcp_sdk_client.py", import.meta.url));
      const { code, stdout, stderr } = await new Deno.Command(MCP_VENV.python, {
        args: [
          script,
          `${url}/mcp?task_id=py-median-even`,
          join(TASKS_DIR, "py-median-even", "solution.patch"),
        ],
        env: { PYTHONDONTWRITEBYTECODE: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      assert.equal(code, 0, out + new TextDecoder().decode(stderr));
      const facts = JSON.parse(out.trim().split("\n").at(-1)!);
      assert.deepEqual(facts, {
        protocol_version: facts.protocol_version,
        tools: TOOLS.map((t) => t.name),
        instructions_name_the_task: true,
        read_ok: true,
        reward: 1,
        stop_reason: "submitted",
      });
      assert.match(facts.protocol_version, /^\d{4}-\d{2}-\d{2}$/);
    });
  },
});
