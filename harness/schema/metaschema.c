/*
 * metaschema.c - documents the validator knows without fetching them.
 *
 * The draft-07 meta-schema, written for this project from the draft-07
 * validation specification's keyword list: it accepts exactly the schemas
 * draft-07 allows (annotations such as "default" and "examples" included),
 * so `{"$ref": "http://json-schema.org/draft-07/schema#"}` validates schemas.
 */
#include <string.h>

#include "schema/internal.h"

static const char draft07[] =
    "{"
    "\"$schema\":\"http://json-schema.org/draft-07/schema#\","
    "\"$id\":\"http://json-schema.org/draft-07/schema#\","
    "\"title\":\"draft-07 schema (mcpcheck built-in)\","
    "\"definitions\":{"
    "  \"list\":{\"type\":\"array\",\"minItems\":1,\"items\":{\"$ref\":\"#\"}},"
    "  \"count\":{\"type\":\"integer\",\"minimum\":0},"
    "  \"count0\":{\"allOf\":[{\"$ref\":\"#/definitions/count\"},{\"default\":0}]},"
    "  \"typeName\":{\"enum\":[\"null\",\"boolean\",\"object\",\"array\",\"number\","
    "                          \"integer\",\"string\"]},"
    "  \"names\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"uniqueItems\":true,"
    "             \"default\":[]},"
    "  \"schemaMap\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#\"},"
    "                 \"default\":{}}"
    "},"
    "\"type\":[\"object\",\"boolean\"],"
    "\"properties\":{"
    "  \"$id\":{\"type\":\"string\",\"format\":\"uri-reference\"},"
    "  \"$schema\":{\"type\":\"string\",\"format\":\"uri\"},"
    "  \"$ref\":{\"type\":\"string\",\"format\":\"uri-reference\"},"
    "  \"$comment\":{\"type\":\"string\"},"
    "  \"title\":{\"type\":\"string\"},"
    "  \"description\":{\"type\":\"string\"},"
    "  \"default\":true,"
    "  \"readOnly\":{\"type\":\"boolean\",\"default\":false},"
    "  \"writeOnly\":{\"type\":\"boolean\",\"default\":false},"
    "  \"examples\":{\"type\":\"array\",\"items\":true},"
    "  \"multipleOf\":{\"type\":\"number\",\"exclusiveMinimum\":0},"
    "  \"maximum\":{\"type\":\"number\"},"
    "  \"exclusiveMaximum\":{\"type\":\"number\"},"
    "  \"minimum\":{\"type\":\"number\"},"
    "  \"exclusiveMinimum\":{\"type\":\"number\"},"
    "  \"maxLength\":{\"$ref\":\"#/definitions/count\"},"
    "  \"minLength\":{\"$ref\":\"#/definitions/count0\"},"
    "  \"pattern\":{\"type\":\"string\",\"format\":\"regex\"},"
    "  \"additionalItems\":{\"$ref\":\"#\"},"
    "  \"items\":{\"anyOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#/definitions/list\"}],"
    "             \"default\":true},"
    "  \"maxItems\":{\"$ref\":\"#/definitions/count\"},"
    "  \"minItems\":{\"$ref\":\"#/definitions/count0\"},"
    "  \"uniqueItems\":{\"type\":\"boolean\",\"default\":false},"
    "  \"contains\":{\"$ref\":\"#\"},"
    "  \"maxProperties\":{\"$ref\":\"#/definitions/count\"},"
    "  \"minProperties\":{\"$ref\":\"#/definitions/count0\"},"
    "  \"required\":{\"$ref\":\"#/definitions/names\"},"
    "  \"additionalProperties\":{\"$ref\":\"#\"},"
    "  \"definitions\":{\"$ref\":\"#/definitions/schemaMap\"},"
    "  \"properties\":{\"$ref\":\"#/definitions/schemaMap\"},"
    "  \"patternProperties\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#\"},"
    "                         \"propertyNames\":{\"format\":\"regex\"},\"default\":{}},"
    "  \"dependencies\":{\"type\":\"object\",\"additionalProperties\":"
    "      {\"anyOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#/definitions/names\"}]}},"
    "  \"propertyNames\":{\"$ref\":\"#\"},"
    "  \"const\":true,"
    "  \"enum\":{\"type\":\"array\",\"items\":true},"
    "  \"type\":{\"anyOf\":[{\"$ref\":\"#/definitions/typeName\"},"
    "           {\"type\":\"array\",\"items\":{\"$ref\":\"#/definitions/typeName\"},"
    "            \"minItems\":1,\"uniqueItems\":true}]},"
    "  \"format\":{\"type\":\"string\"},"
    "  \"contentMediaType\":{\"type\":\"string\"},"
    "  \"contentEncoding\":{\"type\":\"string\"},"
    "  \"if\":{\"$ref\":\"#\"},"
    "  \"then\":{\"$ref\":\"#\"},"
    "  \"else\":{\"$ref\":\"#\"},"
    "  \"allOf\":{\"$ref\":\"#/definitions/list\"},"
    "  \"anyOf\":{\"$ref\":\"#/definitions/list\"},"
    "  \"oneOf\":{\"$ref\":\"#/definitions/list\"},"
    "  \"not\":{\"$ref\":\"#\"}"
    "},"
    "\"default\":true"
    "}";

const char *mc__builtin_schema(const char *uri)
{
    if (strcmp(uri, "http://json-schema.org/draft-07/schema") == 0)
        return draft07;
    return NULL;
}
