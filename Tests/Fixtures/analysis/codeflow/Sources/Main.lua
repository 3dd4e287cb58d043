-- Clean under codeflow-ios: SDK bindings, the bridge's globals, host globals and modules.
local UiView = require "UIKit.UIView"
local NsString = require "Foundation.NSString"
local lpeg = require "lpeg"
local http = require "socket.http"
local LabelCell = require "Views.LabelCell"

local Controller = class.createClass("Controller", objc.UIViewController)

function Controller:viewDidLoad()
  self[objc]:viewDidLoad()
  self.view.autoresizingMask = UiView.Autoresizing.FlexibleHeight
  self.cell = LabelCell.new(AppTheme.font, getResource("words", "txt"))
end

return { Controller = Controller, NsString = NsString, lpeg = lpeg, http = http }
