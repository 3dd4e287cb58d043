import FlowCLI

Flowpkg.main()
