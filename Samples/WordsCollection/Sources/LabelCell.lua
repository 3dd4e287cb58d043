-- LabelCell: a collection view cell showing one word, centred, on a coloured rounded card.

local UiView = require "UIKit.UIView"
local NsText = require "UIKit.NSText"

local UICollectionViewCell = objc.UICollectionViewCell
local LabelCell = class.createClass("LabelCell", UICollectionViewCell)

local fontSize = 24

-- One label kept for measuring, so sizing a cell does not build a view each time.
local measuringLabel = nil

--- The width a word takes in the cells' font, in points. Called on the class by the controller
--- to size each cell before it exists.
function LabelCell.class:widthOfWord(word) -- luacheck: ignore 212/self
    if measuringLabel == nil then
        measuringLabel = objc.UILabel:new()
        measuringLabel.font = objc.UIFont:boldSystemFontOfSize(fontSize)
    end
    measuringLabel.text = word
    return measuringLabel:sizeThatFits({ width = 10000, height = 100 }).width
end

function LabelCell:initWithFrame(frame)
    self = self[UICollectionViewCell]:initWithFrame(frame)
    if self ~= nil then
        self:buildLabel()
    end
    return self
end

function LabelCell:buildLabel()
    local contentView = self.contentView
    contentView.clipsToBounds = true
    contentView.layer.cornerRadius = 12

    local label = objc.UILabel:newWithFrame(contentView.bounds)
    label.autoresizingMask = UiView.Autoresizing.FlexibleWidth + UiView.Autoresizing.FlexibleHeight
    label.textAlignment = NsText.Alignment.Center
    label.font = objc.UIFont:boldSystemFontOfSize(fontSize)
    label.textColor = objc.UIColor.whiteColor
    contentView:addSubview(label)
    self.label = label
end

--- Shows `word`, the `index`-th of `count`: the hues go once around the colour wheel over
--- the whole text, so neighbouring words have neighbouring colours.
function LabelCell:showWord(word, index, count)
    if self.label == nil then
        self:buildLabel()
    end
    local hue = ((index - 1) / math.max(count, 1) + 0.55) % 1.0
    local UIColor = objc.UIColor
    self.contentView.backgroundColor = UIColor:colorWithHue_saturation_brightness_alpha(hue, 0.5, 0.85, 1)
    self.contentView.layer.borderWidth = 2
    self.contentView.layer.borderColor = UIColor:colorWithHue_saturation_brightness_alpha(hue, 0.9, 0.6, 1).CGColor
    self.label.text = word
end

return LabelCell
