import Testing

@testable import FlowLiveDevelopment

@Suite struct BreakpointHitConditionTests {
    @Test func hitConditionsCountAsDebuggersWriteThem() {
        #expect(BreakpointTable.hitConditionHolds("3", hits: 3))
        #expect(!BreakpointTable.hitConditionHolds("3", hits: 2))
        #expect(BreakpointTable.hitConditionHolds(">= 2", hits: 5))
        #expect(!BreakpointTable.hitConditionHolds("> 5", hits: 5))
        #expect(BreakpointTable.hitConditionHolds("% 2", hits: 4))
        #expect(!BreakpointTable.hitConditionHolds("% 2", hits: 3))
        #expect(BreakpointTable.hitConditionHolds(nil, hits: 1))
    }
}
