/** Error codes raised while resolving pointers or applying patches. */
export type PatchErrorCode =
  | "invalid_pointer"
  | "path_not_found"
  | "invalid_index"
  | "test_failed"
  | "invalid_operation";

/** An error from the pointer or patch modules, with a machine-readable code. */
export class PatchError extends Error {
  constructor(readonly code: PatchErrorCode, message: string) {
    super(message);
    this.name = "PatchError";
  }
}
