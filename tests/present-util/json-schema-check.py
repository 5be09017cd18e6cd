#!/usr/bin/env python3
"""json-schema-check.py SCHEMA [FILE...]: validates each JSON FILE (or
stdin) against SCHEMA, with nothing but the standard library.

It knows the subset of JSON Schema (2020-12) that the project's schemas
use: type (one or a list), enum, const, properties, required,
additionalProperties (false or a schema), items, minItems, minimum,
maximum, minLength, pattern, $ref to "#/..." within the same file, and
the annotations ($schema, $id, $defs, title, description).  A keyword it
does not know is an error in the schema, so that a schema can never seem
to pass by using more than this checker checks.  Exit status 0 when every
file is valid, 1 with one line per violation otherwise, 2 for bad usage.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
ASSERTIONS = {"type", "enum", "const", "properties", "required", "additionalProperties",
              "items", "minItems", "minimum", "maximum", "minLength", "pattern", "$ref"}


class SchemaError(Exception):
    pass


def is_type(value, name):
    # bool is a subclass of int in Python; JSON keeps them apart.
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool) or \
            isinstance(value, float) and value.is_integer()
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise SchemaError("unknown type %r" % name)


def resolve(root, ref):
    if not ref.startswith("#"):
        raise SchemaError("only references within the schema are known: %r" % ref)
    node = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise SchemaError("unresolved reference %r" % ref)
        node = node[part]
    return node


def validate(root, schema, value, path, errors):
    if schema is True:
        return
    if schema is False:
        errors.append("%s: not allowed" % path)
        return
    if not isinstance(schema, dict):
        raise SchemaError("%s: a schema must be an object or a boolean" % path)
    unknown = set(schema) - ANNOTATIONS - ASSERTIONS
    if unknown:
        raise SchemaError("%s: keywords this checker does not know: %s" %
                          (path, ", ".join(sorted(unknown))))
    if "$ref" in schema:
        validate(root, resolve(root, schema["$ref"]), value, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(is_type(value, t) for t in types):
            errors.append("%s: %s is not of type %s" % (path, json.dumps(value),
                                                       " or ".join(types)))
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %s is not one of %s" % (path, json.dumps(value),
                                                   json.dumps(schema["enum"])))
    if "const" in schema and value != schema["const"]:
        errors.append("%s: %s is not %s" % (path, json.dumps(value),
                                            json.dumps(schema["const"])))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %s is below %s" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %s is above %s" % (path, value, schema["maximum"]))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append("%s: %s is shorter than %d" % (path, json.dumps(value),
                                                        schema["minLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append("%s: %s does not match %s" % (path, json.dumps(value),
                                                       schema["pattern"]))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append("%s: fewer than %d items" % (path, schema["minItems"]))
        if "items" in schema:
            for i, item in enumerate(value):
                validate(root, schema["items"], item, "%s[%d]" % (path, i), errors)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append("%s: %r is missing" % (path, name))
        for name, item in value.items():
            if name in props:
                validate(root, props[name], item, "%s.%s" % (path, name), errors)
            elif "additionalProperties" in schema:
                extra = schema["additionalProperties"]
                if extra is False:
                    errors.append("%s: %r is not a known property" % (path, name))
                else:
                    validate(root, extra, item, "%s.%s" % (path, name), errors)


def check(schema, value):
    """The violations of value against schema, as a list of lines."""
    errors = []
    validate(schema, schema, value, "$", errors)
    return errors


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: json-schema-check.py SCHEMA [FILE...]\n")
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    status = 0
    for name in argv[2:] or ["-"]:
        try:
            if name == "-":
                value = json.load(sys.stdin)
            else:
                with open(name) as f:
                    value = json.load(f)
        except ValueError as e:
            print("%s: not JSON: %s" % (name, e))
            status = 1
            continue
        try:
            errors = check(schema, value)
        except SchemaError as e:
            print("%s: the schema: %s" % (argv[1], e))
            return 2
        for line in errors:
            print("%s: %s" % (name, line))
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
