"""``template.json`` and ``template.schema.json`` decoded as the Wendy CLI
decodes them (Go's ``encoding/json``), with positions.
"""
