import { type Contract, contractRoutePattern } from "@varia/contracts";
import { z } from "zod";

function schemaOf(schema: z.ZodType, io: "input" | "output") {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" });
}

/** The OpenAPI 3.1 document of the API, generated from the contracts. */
export function buildOpenApi(contracts: readonly Contract[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    const path = contractRoutePattern(contract).replace(/:(\w+)/g, "{$1}");
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ["path", contract.params],
      ["query", contract.query],
    ] as const) {
      if (!(schema instanceof z.ZodObject)) continue;
      for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        parameters.push({
          name,
          in: location,
          required: location === "path" || !field.safeParse(undefined).success,
          schema: schemaOf(field, "input"),
        });
      }
    }
    const responseContent =
      contract.responseKind === "json"
        ? { "application/json": { schema: schemaOf(contract.response, "output") } }
        : contract.responseKind === "text"
          ? { "text/plain": { schema: { type: "string" } } }
          : contract.responseKind === "file"
            ? { "application/octet-stream": { schema: { type: "string", format: "binary" } } }
            : undefined;
    paths[path] ??= {};
    paths[path][contract.method.toLowerCase()] = {
      operationId: contract.name,
      summary: contract.summary,
      parameters,
      ...(contract.body
        ? {
            requestBody: {
              required: true,
              content:
                contract.bodyKind === "multipart"
                  ? { "multipart/form-data": { schema: { type: "object" } } }
                  : { "application/json": { schema: schemaOf(contract.body, "input") } },
            },
          }
        : {}),
      responses: {
        "200": { description: "Success", ...(responseContent ? { content: responseContent } : {}) },
        "400": { description: "Bad Request: the body names each invalid field" },
        ...(contract.access === "public" ? {} : { "401": { description: "Unauthorized" } }),
        ...(typeof contract.access === "object" ? { "403": { description: "Lacks the ability" } } : {}),
      },
      "x-varia-access": contract.access,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Varia API", version },
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "varia_session" },
        token: { type: "http", scheme: "bearer" },
      },
    },
    security: [{ session: [] }, { token: [] }],
    paths,
  };
}
