import { JsonSchema, Schema } from "effect"
import { Config } from "./schema.ts"

/**
 * JSON Schema of the config file, for editors (yaml-language-server) and
 * readers. The Effect decoder stays the authority: some checks (secrets,
 * protocol options, cross-field rules) are only approximated here.
 */
export const configJsonSchema = (): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(Config, { onExcessProperty: "error" })
  return {
    $schema: JsonSchema.META_SCHEMA_URI_DRAFT_2020_12,
    ...document.schema,
    ...(Object.keys(document.definitions).length === 0 ? {} : { $defs: document.definitions })
  }
}

export const renderConfigJsonSchema = (): string => `${JSON.stringify(configJsonSchema(), null, 2)}\n`

if (import.meta.main) process.stdout.write(renderConfigJsonSchema())
