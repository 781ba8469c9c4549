// Validates an OpenAPI document (a file path argument) against the official OpenAPI 3.1 JSON
// Schema, with a validator nobody here wrote. Exit 0 when valid; else prints the errors, exit 1.
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";

const validator = new Validator();
const result = await validator.validate(JSON.parse(readFileSync(process.argv[2], "utf8")));
if (!result.valid) {
  console.error(JSON.stringify(result.errors, null, 2).slice(0, 4000));
  process.exit(1);
}
console.log(`valid OpenAPI ${validator.version}`);
