extension ModuleTypes {
    /// What the module adds to a project's `TypeCatalog` (its classes, aliases, module table,
    /// globals and the fields it sets on others' classes), without what only its own checks
    /// and an editor's view of it read (calls, field reads, findings, locals): small to keep
    /// for every module, and equal for two texts that declare the same types.
    public var declarations: ModuleTypes {
        var kept = ModuleTypes()
        kept.classes = classes
        kept.aliases = aliases
        kept.exports = exports
        kept.exportClass = exportClass
        kept.returnsTable = returnsTable
        kept.globals = globals
        kept.globalFields = globalFields
        kept.assignedFields = assignedFields
        kept.openedClasses = openedClasses
        kept.isMeta = isMeta
        return kept
    }
}
