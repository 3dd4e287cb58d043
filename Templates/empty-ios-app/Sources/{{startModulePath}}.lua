-- {{startModule}}: the root view controller of {{name}}, a UIViewController subclass written
-- in Lua. The host app (see Host/) loads this module first and shows the class it returns.

-- SDK modules give Lua the constants of UIKit's headers.
local UiView = require("UIKit.UIView")
local NsText = require("UIKit.NSText")

local UIViewController = objc.UIViewController
local {{startModuleLeaf}} = class.createClass("{{startModuleLeaf}}", UIViewController)

-- The text in the middle of the screen is Resources/welcome.txt. As a property, it has a
-- setter that getResource calls now and again whenever the file changes during development.
{{startModuleLeaf}}.welcomeText = property({
    set = function(self, text)
        self._welcomeText = text
        self:configureView()
    end,
})

function {{startModuleLeaf}}:loadView()
    -- The view is built in code: no storyboard to keep in sync with the Lua side.
    local view = objc.UIView:new()
    local label = objc.UILabel:new()
    label.numberOfLines = 0
    label.textAlignment = NsText.Alignment.Center
    label.autoresizingMask = UiView.Autoresizing.FlexibleWidth + UiView.Autoresizing.FlexibleHeight
    view:addSubview(label)
    self.messageLabel = label
    self.view = view
end

function {{startModuleLeaf}}:viewDidLoad()
    self[UIViewController]:viewDidLoad()

    -- When any module of the project is reloaded (live development), refresh the view so it
    -- shows what the new code does without restarting the app.
    self:addMessageHandler("system.did_load_module", "refreshView")

    getResource("welcome", "txt", self, "welcomeText")
    self:configureView()
end

function {{startModuleLeaf}}:configureView()
    local label = self.messageLabel
    if label == nil then
        return -- the view is not loaded yet; viewDidLoad configures it
    end
    self.view.backgroundColor = objc.UIColor.whiteColor
    label.frame = self.view.bounds
    label.font = objc.UIFont:systemFontOfSize(24)
    label.textColor = objc.UIColor.darkGrayColor
    label.text = self._welcomeText or "{{name}}"
end

function {{startModuleLeaf}}:refreshView()
    -- Add here whatever else must follow a code change: reload data, invalidate layouts...
    self:configureView()
end

-- A module that creates a class returns it, so the host (and other modules) can use it.
return {{startModuleLeaf}}
