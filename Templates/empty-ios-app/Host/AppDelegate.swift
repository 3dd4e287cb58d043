// The native side of {{name}}: it creates the Lua context that runs the modules in Sources/,
// and shows the view controller class that module {{startModule}} returns.
//
// flowpkg's host libraries do the Lua side: FlowRuntime finds the exported package in the app
// bundle, checks it and runs its modules; in debug builds only, FlowLiveDevelopment connects to
// `flowpkg serve` so saved files replace the package's code while the app runs. Turning the
// Lua class {{startModule}} returns into a UIKit view controller (`objc`, `class.createClass`
// in the module) needs an Objective-C bridge for Lua in the app, such as CodeFlow's runtime:
// flowpkg does not provide one. `showRootController` below is where the two meet.

import FlowPackage
import FlowRuntime
import UIKit
#if DEBUG
    import FlowLiveDevelopment
#endif

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var luaContext: LuaContext?
    #if DEBUG
        private var liveSession: LiveSession?
    #endif

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.backgroundColor = .white
        self.window = window
        do {
            // The identifier selects this app's package among the .luapkg files in the bundle:
            // it is "identifier" in flowpkg.json, and `flowpkg export` writes it into the package.
            let context = try LuaContext(
                package: try PackageIdentifier("{{identifier}}"), bundle: .main, name: "{{name}}")
            luaContext = context

            #if DEBUG
                // Debug builds only: with FLOWPKG_LIVE_URL and FLOWPKG_LIVE_TOKEN set in the
                // scheme (the URL and token `flowpkg serve` prints), code and resources come
                // from the Mac first and every save is applied. A release build has no session
                // at all, so nothing outside the app can reach its Lua context.
                let environment = ProcessInfo.processInfo.environment
                if let url = environment["FLOWPKG_LIVE_URL"].flatMap(URL.init(string:)),
                    let token = environment["FLOWPKG_LIVE_TOKEN"]
                {
                    liveSession = LiveSession.attach(
                        to: context, configuration: .init(url: url, token: token, connectionTimeout: 5),
                        afterChange: { [weak self] in
                            DispatchQueue.main.async { self?.showRootController() }
                        })
                }
            #endif

            showRootController()
        } catch {
            // A missing or damaged package: the error names the file, the entry and the reason.
            fatalError("{{name}}: \(error)")
        }
        window.makeKeyAndVisible()
        return true
    }

    /// Runs the start module (again after a live change) and shows the class it returns.
    private func showRootController() {
        guard let context = luaContext else { return }
        do {
            let controllerClass = try context.loadStartModule()
            // Here the app's Objective-C bridge turns `controllerClass` (a Lua value) into a
            // UIViewController subclass and sets `window?.rootViewController` to a new one.
            _ = controllerClass
        } catch {
            print("{{name}}: \(error)")
        }
    }

    func applicationWillTerminate(_ application: UIApplication) {
        #if DEBUG
            liveSession?.stop()
        #endif
        luaContext?.terminate()
    }
}
